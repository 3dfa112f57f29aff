// Request and response shapes of the public token reads.
import { z } from 'zod';
import { chainIdQuery } from '../http/schemas.js';

export const TOKEN_CAPABILITY = {
  /** EIP-3009: transferWithAuthorization / receiveWithAuthorization (probed via authorizationState). */
  eip3009: 1,
  /** EIP-2612: permit (probed via nonces and DOMAIN_SEPARATOR). */
  eip2612: 2,
  /** ERC-5267: eip712Domain() describes the signing domain. */
  erc5267: 4,
} as const;

export const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
  .describe('An EVM address, 0x-prefixed hex (any letter case).');

export const modeQuery = z
  .enum(['test', 'live'])
  .default('test')
  .describe('Which chain to read: `test` (default) or `live`. Public reads carry no key, so the mode is chosen here.');

export const tokenParams = z.object({ address });
const tokenChainId = chainIdQuery.describe("Which of the mode's chains to read (EIP-155 id); default: the mode's first chain.");
export const tokenQuery = z.object({ mode: modeQuery, chainId: tokenChainId });
export const permitNonceQuery = z.object({ owner: address, mode: modeQuery, chainId: tokenChainId });

export const token = z
  .object({
    object: z.literal('token'),
    address: z.string().describe('Checksummed token address.'),
    chainId: z.number().int(),
    livemode: z.boolean(),
    name: z.string(),
    symbol: z.string(),
    decimals: z.number().int(),
    domain: z
      .object({
        name: z.string(),
        version: z.string(),
        chainId: z.number().int(),
        verifyingContract: z.string(),
      })
      .nullable()
      .describe(
        'The EIP-712 domain to sign EIP-3009 and EIP-2612 messages with (from eip712Domain(), else name() and version() as on Circle USDC, else a known value for the chain); null when the token has no signing domain.',
      ),
    capabilities: z
      .number()
      .int()
      .describe(
        'Bitmap of supported standards: 1 = EIP-3009 (transfer/receiveWithAuthorization), 2 = EIP-2612 (permit), 4 = ERC-5267 (eip712Domain). Detected by probing the contract.',
      ),
    supports: z.object({ eip3009: z.boolean(), eip2612: z.boolean(), erc5267: z.boolean() }).describe('The capability bits spelled out.'),
  })
  .meta({ id: 'Token' });

export const permitNonce = z
  .object({
    object: z.literal('permit_nonce'),
    token: z.string(),
    owner: z.string(),
    nonce: z.string().describe("The owner's current EIP-2612 nonce (nonces(owner)) as an integer string: sign the next permit with it."),
  })
  .meta({ id: 'PermitNonce' });

export type Token = z.infer<typeof token>;
export type PermitNonce = z.infer<typeof permitNonce>;
