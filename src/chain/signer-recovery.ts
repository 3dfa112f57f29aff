// Who signed an EIP-712 message: the address recovered from the signature over
// its digest. The relay runs this on every request (authorizations, permits,
// enrolments), so it recovers through libsecp256k1 compiled to WebAssembly
// (tiny-secp256k1): about nine times less CPU than viem's pure-JS recovery
// (docs/benchmarks.md, relay). It gives the answers viem's recoverTypedDataAddress
// gives (test/chain/signer-recovery.unit.test.ts): 65-byte signatures whose last byte
// is 27/28 or 0/1, high s accepted (the contract decides whether it takes them).
import * as secp256k1 from 'tiny-secp256k1';
import { type Address, type Hex, type TypedData, type TypedDataDefinition, getAddress, hashTypedData, hexToBytes, keccak256 } from 'viem';

const RECOVERY_BITS: Record<number, 0 | 1> = { 0: 0, 1: 1, 27: 0, 28: 1 };

/** The address that signed `digest` (32 bytes), or undefined for a signature that recovers nothing. */
export function recoverDigestSigner(digest: Hex, signature: Hex): Address | undefined {
  try {
    const bytes = hexToBytes(signature);
    if (bytes.length !== 65) return undefined;
    const recoveryBit = RECOVERY_BITS[bytes[64]!];
    if (recoveryBit === undefined) return undefined;
    const publicKey = secp256k1.recover(hexToBytes(digest, { size: 32 }), bytes.subarray(0, 64), recoveryBit, false);
    if (!publicKey) return undefined;
    // The address: the last 20 bytes of keccak256 of the uncompressed key without its 0x04 prefix.
    return getAddress(`0x${keccak256(publicKey.subarray(1)).slice(-40)}`);
  } catch {
    // Malformed hex, r or s out of range, or no point for this r.
    return undefined;
  }
}

/** The address that signed this typed-data message, or undefined. */
export function recoverTypedDataSigner<const T extends TypedData | Record<string, unknown>, P extends keyof T | 'EIP712Domain'>(
  typed: TypedDataDefinition<T, P>,
  signature: Hex,
): Address | undefined {
  let digest: Hex;
  try {
    digest = hashTypedData(typed);
  } catch {
    // A message its types cannot encode was not signed by anyone (viem's recovery throws here too).
    return undefined;
  }
  return recoverDigestSigner(digest, signature);
}
