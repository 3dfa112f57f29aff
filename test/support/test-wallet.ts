// An injected EIP-1193 test wallet for browser tests: `window.ethereum.request`
// is forwarded to Node, which answers from a viem private-key account (an anvil
// account), signs EIP-712 typed data and EIP-191 messages (personal_sign), forwards eth_call and eth_getBlockByNumber to the chain it is on,
// switches among the chains it knows (EIP-3326; 4902 for any other) and refuses everything else as a
// real wallet would. Every request is logged with its parameters.
import type { BrowserContext, Page } from 'playwright-core';
import type { Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';

export type TestWalletOptions = {
  account: PrivateKeyAccount;
  /** The chain the wallet is on and the RPC it forwards reads to. */
  chainId: number;
  rpcUrl: string;
  /** Further chains the wallet knows (chain id to RPC URL): wallet_switchEthereumChain moves to them. */
  otherChains?: Record<number, string>;
  /** Answer signature requests with EIP-1193 code 4001 (the user rejected). */
  rejectSignature?: boolean;
  viewport?: { width: number; height: number };
};

/** Every method the page asked the wallet for, in order, and each request with its parameters. */
export type TestWalletLog = { methods: string[]; requests: { method: string; params: unknown[] }[] };

/** The chain the wallet is on now (switches move it) and the RPC of each chain it knows. */
type WalletChain = { chainId: number; rpcUrls: Map<number, string> };

const WALLET_SCRIPT = `
  window.ethereum = {
    isTestWallet: true,
    request: async function (args) {
      const answer = await window.__testWalletRequest(args.method, JSON.stringify(args.params === undefined ? [] : args.params));
      if (answer.error) {
        const error = new Error(answer.error.message);
        error.code = answer.error.code;
        throw error;
      }
      return answer.result;
    },
  };
`;

class ProviderError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Converts the wallet's JSON typed data (integers as strings) to what viem signs. */
function toViemTypedData(json: string) {
  const data = JSON.parse(json) as {
    types: Record<string, { name: string; type: string }[]>;
    primaryType: string;
    domain: Record<string, unknown>;
    message: Record<string, unknown>;
  };
  const { EIP712Domain: _domainType, ...types } = data.types;
  const message: Record<string, unknown> = {};
  for (const field of types[data.primaryType] ?? []) {
    const value = data.message[field.name];
    message[field.name] = /^u?int\d*$/.test(field.type) ? BigInt(value as string) : value;
  }
  return { domain: data.domain, types, primaryType: data.primaryType, message };
}

async function answer(options: TestWalletOptions, on: WalletChain, method: string, params: unknown[]): Promise<unknown> {
  switch (method) {
    case 'eth_requestAccounts':
    case 'eth_accounts':
      return [options.account.address];
    case 'eth_chainId':
      return `0x${on.chainId.toString(16)}`;
    case 'wallet_switchEthereumChain': {
      const wanted = Number(BigInt((params[0] as { chainId: string }).chainId));
      // Like a wallet that does not know the chain: the page must add it or say which network to use.
      if (!on.rpcUrls.has(wanted)) throw new ProviderError(4902, 'Unrecognized chain ID.');
      on.chainId = wanted;
      return null;
    }
    case 'wallet_addEthereumChain':
      // This wallet reaches only the test's own chains: adding another is declined as a user would.
      throw new ProviderError(4001, 'User rejected the request.');
    case 'eth_signTypedData_v4': {
      if (options.rejectSignature) throw new ProviderError(4001, 'User rejected the request.');
      const [from, json] = params as [string, string];
      if (from.toLowerCase() !== options.account.address.toLowerCase()) throw new ProviderError(4100, 'Unknown account.');
      return options.account.signTypedData(toViemTypedData(json) as Parameters<PrivateKeyAccount['signTypedData']>[0]);
    }
    case 'personal_sign': {
      // EIP-191: the message as hex bytes first, then the account (as Sign-In with Ethereum asks).
      if (options.rejectSignature) throw new ProviderError(4001, 'User rejected the request.');
      const [data, from] = params as [Hex, string];
      if (from.toLowerCase() !== options.account.address.toLowerCase()) throw new ProviderError(4100, 'Unknown account.');
      return options.account.signMessage({ message: { raw: data } });
    }
    case 'eth_call':
    case 'eth_getBlockByNumber': {
      const response = await fetch(on.rpcUrls.get(on.chainId)!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = (await response.json()) as { result?: string; error?: { code: number; message: string } };
      if (body.error) throw new ProviderError(body.error.code, body.error.message);
      return body.result;
    }
    default:
      throw new ProviderError(4200, `Unsupported method ${method}.`);
  }
}

/** A new page of `context` with the test wallet injected before any script of the page runs. */
export async function openWalletPage(context: BrowserContext, options: TestWalletOptions): Promise<{ page: Page; log: TestWalletLog }> {
  const page = await context.newPage();
  if (options.viewport) await page.setViewportSize(options.viewport);
  const log: TestWalletLog = { methods: [], requests: [] };
  const on: WalletChain = {
    chainId: options.chainId,
    rpcUrls: new Map([
      [options.chainId, options.rpcUrl],
      ...Object.entries(options.otherChains ?? {}).map(([id, url]) => [Number(id), url] as const),
    ]),
  };
  await page.exposeFunction('__testWalletRequest', async (method: string, paramsJson: string) => {
    const params = JSON.parse(paramsJson) as unknown[];
    log.methods.push(method);
    log.requests.push({ method, params });
    try {
      return { result: await answer(options, on, method, params) };
    } catch (error) {
      const e = error as { code?: number; message?: string };
      return { error: { code: e.code ?? -32603, message: e.message ?? 'wallet error' } };
    }
  });
  await page.addInitScript({ content: WALLET_SCRIPT });
  return { page, log };
}
