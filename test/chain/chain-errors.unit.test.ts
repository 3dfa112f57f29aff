import { HttpRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { safeChainError, withSafeChainErrors } from '../../src/chain/clients.js';
import { InvalidRequestError } from '../../src/errors.js';

describe('chain errors in logs and workflow history', () => {
  it('drops the RPC URL (it may carry a provider key) and keeps name and short message', async () => {
    const url = 'https://rpc.example/v3/secret-provider-key';
    const error = new HttpRequestError({ url, status: 500, body: { method: 'eth_call' } });
    expect(error.message).toContain('secret-provider-key');
    const safe = safeChainError(error) as Error;
    expect(safe.message).not.toContain('secret-provider-key');
    expect(safe.message).toContain('HTTP request failed');
    await expect(withSafeChainErrors(async () => Promise.reject(error))).rejects.not.toHaveProperty('message', error.message);
  });

  it('passes API errors through unchanged', async () => {
    const apiError = new InvalidRequestError('bad', { param: 'x' });
    await expect(withSafeChainErrors(async () => Promise.reject(apiError))).rejects.toBe(apiError);
  });
});
