/**
 * ERC-1271: whether a smart-contract wallet accepts a signature over a digest as its own, asked the
 * way USDC 2.2's SignatureChecker asks it (`isValidSignature(digest, signature)` answering the magic
 * value). An address without code, a call that reverts or any other answer is not a valid signature.
 */
import { type Address, type Hex, type PublicClient, parseAbi } from 'viem';

export const ERC1271_MAGIC_VALUE = '0x1626ba7e';

const erc1271Abi = parseAbi(['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)']);

export async function isValidContractSignature(client: PublicClient, wallet: Address, digest: Hex, signature: Hex): Promise<boolean> {
  const code = await client.getCode({ address: wallet });
  if (!code || code === '0x') return false;
  try {
    const answer = await client.readContract({
      address: wallet,
      abi: erc1271Abi,
      functionName: 'isValidSignature',
      args: [digest, signature],
    });
    return answer.toLowerCase() === ERC1271_MAGIC_VALUE;
  } catch {
    return false;
  }
}
