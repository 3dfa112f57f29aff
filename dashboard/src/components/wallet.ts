// The injected wallet (EIP-1193) the payout wallet signs with: permits and refund transfers.
type Eip1193 = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };

function injected(): Eip1193 {
  const provider = (window as unknown as { ethereum?: Eip1193 }).ethereum;
  if (!provider)
    throw new Error(
      'No wallet found in this browser. Open the dashboard where your payout wallet is installed, or use the approve alternative.',
    );
  return provider;
}

/**
 * Moves the wallet to chain `expected` (EIP-3326) when it is on another: wallets refuse to sign typed data whose
 * domain names a chain other than the active one, and each chain of the mode has its own allowance (issue 39).
 */
async function ensureChain(provider: Eip1193, expected: number): Promise<void> {
  const current = async () => Number(BigInt((await provider.request({ method: 'eth_chainId' })) as string));
  if ((await current()) === expected) return;
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${expected.toString(16)}` }] });
  } catch {
    throw new Error(`Switch your wallet to chain ${expected} (the chain of this allowance) and try again.`);
  }
  if ((await current()) !== expected)
    throw new Error(`Switch your wallet to chain ${expected} (the chain of this allowance) and try again.`);
}

/** Signs EIP-712 typed data with the payout wallet, on the domain's chain; refuses when the connected account is another. */
export async function signTypedDataAs(
  owner: string,
  typed: { domain: { chainId?: number }; types: object; primaryType: string; message: object },
): Promise<string> {
  const provider = injected();
  const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
  if (!accounts.some((a) => a.toLowerCase() === owner.toLowerCase())) {
    throw new Error(`Connect the payout wallet ${owner} in your wallet (connected: ${accounts.join(', ') || 'none'}).`);
  }
  if (typed.domain.chainId !== undefined) await ensureChain(provider, typed.domain.chainId);
  return (await provider.request({ method: 'eth_signTypedData_v4', params: [owner, JSON.stringify(typed)] })) as string;
}

/** A random EIP-3009 nonce (32 bytes). */
export function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
