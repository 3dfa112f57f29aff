/**
 * Anvil's default dev accounts (mnemonic below, m/44'/60'/0'/0/i). These keys are PUBLIC and hold
 * value only on local dev chains: never use them on a real network.
 *
 * Roles used across the project (keep them stable, the deployment addresses depend on the deployer):
 *   0 deployer  - deploys the contracts; the USDC proxy's admin. Reserved: send nothing else from it,
 *                 or the deterministic (nonce-based) contract addresses move.
 *   1 relayer   - pays gas for relayed EIP-3009 / permit / enrolment submissions.
 *   2 operator  - the merchant's operator allowed to charge subscriptions.
 *   3 merchant  - a demo merchant payout address.
 *   4..9 payers - funded with USDC at deployment.
 * Circle's USDC (FiatTokenV2_2 behind FiatTokenProxy, see circle-usdc.ts) takes five more, derived from
 * the same mnemonic beyond anvil's default ten (deploy.ts gives them gas with anvil_setBalance):
 *  10 usdcDeployer     - deploys SignatureChecker (nonce 0) and the FiatTokenV2_2 implementation (nonce 1).
 *                        Reserved like the deployer: the implementation's address depends on those nonces.
 *  11 usdcOwner        - the token's owner (and lostAndFound); initialises the proxy, as the proxy's admin
 *                        (the deployer) cannot call token functions.
 *  12 usdcMasterMinter - master minter, configured as the dev minter too: mints to the payers.
 *  13 usdcPauser       - may pause and unpause the token.
 *  14 usdcBlacklister  - may blacklist and unblacklist accounts.
 */
import type { Address, Hex } from 'viem';

export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

export interface DevAccount {
  index: number;
  address: Address;
  privateKey: Hex;
}

/** The ten accounts anvil creates by default, in derivation order. */
export const ANVIL_ACCOUNTS: readonly DevAccount[] = Object.freeze([
  {
    index: 0,
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  },
  {
    index: 1,
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  },
  {
    index: 2,
    address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  },
  {
    index: 3,
    address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    privateKey: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  },
  {
    index: 4,
    address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
    privateKey: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  },
  {
    index: 5,
    address: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
    privateKey: '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  },
  {
    index: 6,
    address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    privateKey: '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  },
  {
    index: 7,
    address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    privateKey: '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  },
  {
    index: 8,
    address: '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
    privateKey: '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  },
  {
    index: 9,
    address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
    privateKey: '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
  },
] as const);

/** Mnemonic accounts 10-14: anvil does not fund them, deploy.ts does. */
export const EXTRA_DEV_ACCOUNTS: readonly DevAccount[] = Object.freeze([
  {
    index: 10,
    address: '0xBcd4042DE499D14e55001CcbB24a551F3b954096',
    privateKey: '0xf214f2b2cd398c806f84e317254e0f0b801d0643303237d97a22a48e01628897',
  },
  {
    index: 11,
    address: '0x71bE63f3384f5fb98995898A86B02Fb2426c5788',
    privateKey: '0x701b615bbdfb9de65240bc28bd21bbc0d996645a3dd57e7b12bc2bdf6f192c82',
  },
  {
    index: 12,
    address: '0xFABB0ac9d68B0B445fB7357272Ff202C5651694a',
    privateKey: '0xa267530f49f8280200edf313ee7af6b827f2a8bce2897751d06a843f644967b1',
  },
  {
    index: 13,
    address: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec',
    privateKey: '0x47c99abed3324a2707c28affff1267e45918ec8c3f20b8aa892e8b065d2942dd',
  },
  {
    index: 14,
    address: '0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097',
    privateKey: '0xc526ee95bf44d8fc405a158bb884d9d1238d99f0612e9f33d006bb0789009aaa',
  },
] as const);

const at = (i: number): DevAccount => {
  const account = ANVIL_ACCOUNTS[i] ?? EXTRA_DEV_ACCOUNTS[i - ANVIL_ACCOUNTS.length];
  if (!account) throw new Error(`no anvil account ${i}`);
  return account;
};

export const DEV_ACCOUNTS = Object.freeze({
  deployer: at(0),
  relayer: at(1),
  operator: at(2),
  merchant: at(3),
  payers: Object.freeze([at(4), at(5), at(6), at(7), at(8), at(9)]),
  usdcDeployer: at(10),
  usdcOwner: at(11),
  usdcMasterMinter: at(12),
  usdcPauser: at(13),
  usdcBlacklister: at(14),
});
