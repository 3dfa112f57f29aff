// The platform's sending accounts (relayer, operator): viem's private-key account
// whose transaction and hash signatures are made by libsecp256k1 compiled to
// WebAssembly (tiny-secp256k1) instead of viem's pure-JS secp256k1, at about half
// its CPU per signature (docs/benchmarks.md, relay). Both sign by
// RFC 6979 with low s, so the bytes are the same as viem's
// (test/chain/signing-account.unit.test.ts); messages and typed data keep viem's path.
import * as secp256k1 from 'tiny-secp256k1';
import {
  type Hex,
  type Signature,
  type TransactionSerializable,
  bytesToHex,
  hexToBytes,
  keccak256,
  serializeSignature,
  serializeTransaction,
} from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';

/** Signs a 32-byte hash: r, s and the recovery bit (yParity), as viem's `sign` returns them. */
function signHash(hash: Hex, key: Uint8Array): Signature {
  const { signature, recoveryId } = secp256k1.signRecoverable(hexToBytes(hash, { size: 32 }), key);
  const yParity = recoveryId & 1;
  return {
    r: bytesToHex(signature.subarray(0, 32)),
    s: bytesToHex(signature.subarray(32, 64)),
    v: yParity ? 28n : 27n,
    yParity,
  };
}

export function signingAccount(privateKey: Hex): PrivateKeyAccount {
  const account = privateKeyToAccount(privateKey);
  const key = hexToBytes(privateKey, { size: 32 });
  return {
    ...account,
    async sign({ hash }) {
      return serializeSignature(signHash(hash, key));
    },
    async signTransaction(transaction, options) {
      const serializer = options?.serializer ?? serializeTransaction;
      // An EIP-4844 transaction is signed without its sidecars (the network wrapper), as viem does.
      const signable = transaction.type === 'eip4844' ? { ...transaction, sidecars: false } : transaction;
      const signature = signHash(keccak256(await serializer(signable as TransactionSerializable)), key);
      return (await serializer(transaction, signature)) as never;
    },
  };
}
