// The relay's signer recovery (WebAssembly libsecp256k1) against viem's recoverTypedDataAddress:
// the same signer, or the same refusal, for every shape of signature a client can send.
import { type Hex, hashTypedData, keccak256, numberToHex, recoverTypedDataAddress, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { EIP3009_TYPES } from '../../src/chain/typed-data.js';
import { recoverDigestSigner, recoverTypedDataSigner } from '../../src/chain/signer-recovery.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const payer = privateKeyToAccount(generatePrivateKey());
const typed = (value: bigint) => ({
  domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const },
  types: EIP3009_TYPES,
  primaryType: 'TransferWithAuthorization' as const,
  message: { from: payer.address, to: payer.address, value, validAfter: 0n, validBefore: 10n ** 12n, nonce: keccak256(toHex(`n${value}`)) },
});

/** viem's answer for typed(1n): the signer, or undefined where it throws. */
const viemSigner = (signature: Hex) => recoverTypedDataAddress({ ...typed(1n), signature }).catch(() => undefined);
const split = (signature: Hex) => ({
  r: BigInt(signature.slice(0, 66)),
  s: BigInt(`0x${signature.slice(66, 130)}`),
  v: Number(`0x${signature.slice(130)}`),
});
const join = (r: bigint, s: bigint, v: number) =>
  `${numberToHex(r, { size: 32 })}${numberToHex(s, { size: 32 }).slice(2)}${v.toString(16).padStart(2, '0')}` as Hex;

describe('signer recovery', () => {
  it('recovers the signer of a typed message, and another address for another message', async () => {
    const signature = await payer.signTypedData(typed(1n));
    expect(recoverTypedDataSigner(typed(1n), signature)).toBe(payer.address);
    expect(recoverDigestSigner(hashTypedData(typed(1n)), signature)).toBe(payer.address);
    const other = recoverTypedDataSigner(typed(2n), signature);
    expect(other).toBeDefined();
    expect(other).not.toBe(payer.address);
    expect(other).toBe(await recoverTypedDataAddress({ ...typed(2n), signature }));
  });

  it("gives viem's answer for every shape: v 27/28 and 0/1, high s, bad v, bad length, r or s out of range, garbage", async () => {
    const digest = hashTypedData(typed(1n));
    const signature = await payer.signTypedData(typed(1n));
    const { r, s, v } = split(signature);
    const shapes: Record<string, Hex> = {
      'as signed': signature,
      'yParity 0/1': join(r, s, v - 27),
      'high s, parity flipped': join(r, N - s, v === 27 ? 28 : 27),
      'high s, parity kept': join(r, N - s, v),
      'v 29': join(r, s, 29),
      'v 2': join(r, s, 2),
      'r 0': join(0n, s, v),
      's 0': join(r, 0n, v),
      'r = n': join(N, s, v),
      's = n': join(r, N, v),
      '64 bytes': signature.slice(0, 130) as Hex,
      '66 bytes': `${signature}00` as Hex,
      'not hex': `0x${'zz'.repeat(65)}` as Hex,
      empty: '0x',
    };
    for (let i = 0; i < 20; i++)
      shapes[`random ${i}`] = join(BigInt(keccak256(toHex(`r${i}`))), BigInt(keccak256(toHex(`s${i}`))), 27 + (i % 2));
    let recovered = 0;
    for (const [shape, candidate] of Object.entries(shapes)) {
      const ours = recoverDigestSigner(digest, candidate);
      expect(ours, shape).toBe(await viemSigner(candidate));
      if (ours) recovered++;
    }
    // The signed shapes and most random points recover; the malformed ones do not.
    expect(recoverDigestSigner(digest, shapes['yParity 0/1']!)).toBe(payer.address);
    expect(recoverDigestSigner(digest, shapes['high s, parity flipped']!)).toBe(payer.address);
    expect(recoverDigestSigner(digest, shapes['v 29']!)).toBeUndefined();
    expect(recoverDigestSigner(digest, shapes['r 0']!)).toBeUndefined();
    expect(recovered).toBeGreaterThan(10);
  });
});
