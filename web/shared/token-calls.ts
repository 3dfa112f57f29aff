// The calldata of the token reads the hosted pages make through the wallet's
// own node (eth_call): balanceOf, isBlacklisted, paused. Hand-encoded (one
// selector and one address word each) so no ABI library reaches the browser;
// test/unit/hosted-pages.test.ts checks them against viem's encoder.
export const BALANCE_OF_SELECTOR = '0x70a08231';
export const IS_BLACKLISTED_SELECTOR = '0xfe575a87';
export const PAUSED_SELECTOR = '0x5c975abb';

function addressWord(address: string): string {
  return address.slice(2).toLowerCase().padStart(64, '0');
}

export const balanceOfCall = (owner: string) => BALANCE_OF_SELECTOR + addressWord(owner);
export const isBlacklistedCall = (account: string) => IS_BLACKLISTED_SELECTOR + addressWord(account);
export const pausedCall = () => PAUSED_SELECTOR;

/** An eth_call answer as a number ("0x" from an account without code reads as 0). */
export function wordValue(hex: unknown): bigint {
  return BigInt(typeof hex === 'string' && hex !== '0x' && hex !== '' ? hex : '0x0');
}

/** 32 random bytes as hex: the nonce of an EIP-3009 authorization or an enrolment. */
export function randomNonce(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return '0x' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
