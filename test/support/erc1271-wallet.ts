// The project's ERC-1271 contract wallet (contracts/Erc1271Wallet.sol) on a test chain: deployed for
// its owners and funded with the token, and its signature of a digest (each owner's raw ECDSA
// signature, concatenated in ascending owner address order, as the wallet wants them).
import { type Address, type Hex, type PublicClient, type WalletClient, erc20Abi } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { loadArtifacts } from '../../tools/dev/chain/artifacts.js';

/** Deploys a wallet of `owners` needing `threshold` signatures, from `funder`, and sends it `funding` of `token`. */
export async function deployErc1271Wallet(
  pub: PublicClient,
  funder: WalletClient & { account: PrivateKeyAccount },
  owners: PrivateKeyAccount[],
  threshold: number,
  token: Address,
  funding: bigint,
): Promise<Address> {
  const artifact = (await loadArtifacts()).contracts.Erc1271Wallet;
  if (!artifact) throw new Error('contracts/Erc1271Wallet.sol was not built');
  const deployed = await funder.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [owners.map((o) => o.address), BigInt(threshold)],
    account: funder.account,
    chain: funder.chain,
  });
  const wallet = (await pub.waitForTransactionReceipt({ hash: deployed })).contractAddress!;
  const funded = await funder.writeContract({
    address: token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [wallet, funding],
    account: funder.account,
    chain: funder.chain,
  });
  if ((await pub.waitForTransactionReceipt({ hash: funded })).status !== 'success') throw new Error('funding the wallet failed');
  return wallet;
}

/** Owners sorted as the wallet wants their signatures (ascending address). */
export const inWalletOrder = (owners: PrivateKeyAccount[]): PrivateKeyAccount[] =>
  [...owners].sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1));

/** The wallet's signature of `digest` by `signers` (in wallet order). */
export async function walletSignature(signers: PrivateKeyAccount[], digest: Hex): Promise<Hex> {
  const parts = await Promise.all(signers.map((signer) => signer.sign({ hash: digest })));
  return `0x${parts.map((p) => p.slice(2)).join('')}`;
}
