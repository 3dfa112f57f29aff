// The sending accounts' WebAssembly signer makes the same bytes as viem's account.
import { type Hex, keccak256, parseTransaction, recoverAddress, recoverTransactionAddress, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { signingAccount } from '../../src/chain/signing-account.js';

describe('signing account', () => {
  it('signs transactions and hashes byte for byte as viem does, for many keys and transactions', async () => {
    for (let i = 0; i < 25; i++) {
      const key = generatePrivateKey();
      const ours = signingAccount(key);
      const viems = privateKeyToAccount(key);
      expect(ours.address).toBe(viems.address);
      const to = privateKeyToAccount(generatePrivateKey()).address;
      const data = keccak256(toHex(`call ${i}`));
      const transactions = [
        {
          type: 'eip1559',
          chainId: 31337,
          to,
          data,
          nonce: i,
          gas: 100_000n + BigInt(i),
          maxFeePerGas: 2_000_000_000n + BigInt(i),
          maxPriorityFeePerGas: 1_000_000n,
        },
        { type: 'legacy', chainId: 8453, to, data, nonce: i * 7, gas: 21_000n, gasPrice: 1_000_000_000n, value: BigInt(i) },
      ] as const;
      for (const transaction of transactions) {
        const signed = await ours.signTransaction(transaction);
        expect(signed).toBe(await viems.signTransaction(transaction));
        expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(ours.address);
        expect(parseTransaction(signed).nonce).toBe(transaction.nonce);
      }
      const hash = keccak256(toHex(`hash ${i}`)) as Hex;
      const signature = await ours.sign({ hash });
      expect(signature).toBe(await viems.sign({ hash }));
      expect(await recoverAddress({ hash, signature })).toBe(ours.address);
    }
  });
});
