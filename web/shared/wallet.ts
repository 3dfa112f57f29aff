// The customer's wallet through EIP-1193 (window.ethereum.request): accounts,
// network, token reads through the wallet's own node, and the refusals USDC
// would make whatever the wallet signs (checked before asking for a signature).
import { payerRefusalMessages, type RefusalCode } from '../../src/chain/refusal-sentences.js';
import { UserMessageError } from './errors.js';
import { balanceOfCall, isBlacklistedCall, pausedCall, wordValue } from './token-calls.js';

type Eip1193Provider = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

export function hasWallet(): boolean {
  return typeof window.ethereum?.request === 'function';
}

export function wallet<T = unknown>(method: string, params?: unknown[]): Promise<T> {
  return window.ethereum!.request(params === undefined ? { method } : { method, params }) as Promise<T>;
}

/** The first connected account; a wallet that connects none counts as the user's rejection. */
export async function requestAccount(): Promise<string> {
  const accounts = await wallet<string[] | null>('eth_requestAccounts');
  const account = accounts?.[0];
  if (!account) throw Object.assign(new Error('no account'), { code: 4001 });
  return account;
}

export async function balanceOf(token: string, owner: string): Promise<bigint> {
  return wordValue(await wallet('eth_call', [{ to: token, data: balanceOfCall(owner) }, 'latest']));
}

export function wrongNetwork(current: number, expected: number): UserMessageError {
  return new UserMessageError(
    `Your wallet is on the wrong network (chain ${current}). Switch your wallet to chain ${expected} and try again.`,
  );
}

/** The latest block's time (ms) on the wallet's network: the time a payment sent there is checked against. */
export async function networkTimeMs(): Promise<number> {
  const block = await wallet<{ timestamp: string } | null>('eth_getBlockByNumber', ['latest', false]);
  if (!block) throw new Error('the wallet returned no latest block');
  return Number(BigInt(block.timestamp)) * 1000;
}

/**
 * Asks the wallet to switch to the expected chain (EIP-3326); a wallet that does not know it (4902) is asked
 * to add it first when `addChain` (EIP-3085, from the chain's preset) is given. A refusal or a switch that did
 * not happen is the payer's to fix.
 */
export async function ensureNetwork(expected: number, addChain?: unknown): Promise<void> {
  const current = Number(BigInt(await wallet<string>('eth_chainId')));
  if (current === expected) return;
  const chainId = '0x' + expected.toString(16);
  try {
    await wallet('wallet_switchEthereumChain', [{ chainId }]);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 4902 || !addChain) throw wrongNetwork(current, expected);
    try {
      await wallet('wallet_addEthereumChain', [addChain]);
      // Wallets that add without switching (EIP-3085 leaves it open) are asked once more.
      if (Number(BigInt(await wallet<string>('eth_chainId'))) !== expected) await wallet('wallet_switchEthereumChain', [{ chainId }]);
    } catch {
      throw wrongNetwork(current, expected);
    }
  }
  if (Number(BigInt(await wallet<string>('eth_chainId'))) !== expected) throw wrongNetwork(current, expected);
}

/** A refusal named before signing; refusalCode is one of src/chain/refusal-sentences.ts's codes. */
export class RefusalAtDoor extends UserMessageError {
  constructor(readonly refusalCode: RefusalCode) {
    super(payerRefusalMessages()[refusalCode]);
  }
}

/**
 * The door, before anything is signed: what USDC would refuse whatever the wallet signs (the payer or the
 * payee blacklisted, the token paused), read through the wallet's own node. The server checks the same
 * again; this only spares the payer a signature that cannot succeed. A token without these functions
 * (not a FiatToken) reads as neither.
 */
export async function refuseAtDoor(token: string, payer: string, payee: string | null): Promise<void> {
  const read = (data: string) =>
    wallet('eth_call', [{ to: token, data }, 'latest']).then(
      (hex) => wordValue(hex) !== 0n,
      () => false,
    );
  const [payerBlocked, payeeBlocked, paused] = await Promise.all([
    read(isBlacklistedCall(payer)),
    payee ? read(isBlacklistedCall(payee)) : false,
    read(pausedCall()),
  ]);
  const code = doorRefusal(payerBlocked, payeeBlocked, paused);
  if (code) throw new RefusalAtDoor(code);
}

/** Which refusal the door names first: the payer's own block, then the payee's, then the pause. */
export function doorRefusal(payerBlocked: boolean, payeeBlocked: boolean, paused: boolean): RefusalCode | null {
  return payerBlocked ? 'payer_blacklisted' : payeeBlocked ? 'merchant_blacklisted' : paused ? 'token_paused' : null;
}
