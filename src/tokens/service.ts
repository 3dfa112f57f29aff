// Public token reads: metadata, the EIP-712 domain and the capability bitmap,
// detected by probing the contract and cached in memory with a TTL. The relay
// reads the signing domain from here as well; the domain itself comes from
// src/chain/eip712-domain.ts, the one domain reader.
import { type Address, type PublicClient, erc20Abi, getAddress } from 'viem';
import { fiatTokenAbi } from '../chain/generated/fiat-token.js';
import { chainFor, type ChainConfig, type ChainSettings } from '../chain/config.js';
import type { ChainResolver } from '../test-clocks/chain-registry.js';
import { publicClientFor } from '../chain/clients.js';
import { NoDomainError, readDomainWithSource } from '../chain/eip712-domain.js';
import { NotFoundError } from '../errors.js';
import { TOKEN_CAPABILITY, type PermitNonce, type Token } from './schemas.js';

type TokenInfo = Omit<Token, 'livemode'>;

async function succeeds(call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return true;
  } catch {
    return false;
  }
}

async function probe(client: PublicClient, chainId: number, tokenAddress: Address): Promise<TokenInfo> {
  const code = await client.getCode({ address: tokenAddress });
  if (!code || code === '0x') throw new NotFoundError(`No contract at ${tokenAddress} on chain ${chainId}.`, { param: 'address' });
  const read = <T>(functionName: 'name' | 'symbol' | 'decimals') =>
    client.readContract({ address: tokenAddress, abi: erc20Abi, functionName }) as Promise<T>;
  let name: string, symbol: string, decimals: number;
  try {
    [name, symbol, decimals] = await Promise.all([read<string>('name'), read<string>('symbol'), read<number>('decimals')]);
  } catch {
    throw new NotFoundError(`The contract at ${tokenAddress} is not an ERC-20 token (name, symbol or decimals missing).`, {
      param: 'address',
    });
  }
  const zero = '0x0000000000000000000000000000000000000000' as const;
  const [eip3009, hasNonces, hasSeparator, signing] = await Promise.all([
    succeeds(() =>
      client.readContract({
        address: tokenAddress,
        abi: fiatTokenAbi,
        functionName: 'authorizationState',
        args: [zero, `0x${'00'.repeat(32)}`],
      }),
    ),
    succeeds(() => client.readContract({ address: tokenAddress, abi: fiatTokenAbi, functionName: 'nonces', args: [zero] })),
    succeeds(() => client.readContract({ address: tokenAddress, abi: fiatTokenAbi, functionName: 'DOMAIN_SEPARATOR' })),
    readDomainWithSource(client, tokenAddress).catch((error: unknown) => {
      if (error instanceof NoDomainError) return undefined;
      throw error;
    }),
  ]);
  const erc5267 = signing?.source === 'erc5267';
  // A signing domain matters only to a token that verifies signatures (EIP-3009, EIP-2612 or ERC-5267).
  const domain: TokenInfo['domain'] =
    signing && (erc5267 || eip3009 || hasSeparator)
      ? {
          name: signing.domain.name,
          version: signing.domain.version,
          chainId: Number(signing.domain.chainId),
          verifyingContract: getAddress(signing.domain.verifyingContract),
        }
      : null;
  const eip2612 = hasNonces && hasSeparator;
  const capabilities =
    (eip3009 ? TOKEN_CAPABILITY.eip3009 : 0) | (eip2612 ? TOKEN_CAPABILITY.eip2612 : 0) | (erc5267 ? TOKEN_CAPABILITY.erc5267 : 0);
  return {
    object: 'token',
    address: tokenAddress,
    chainId,
    name,
    symbol,
    decimals: Number(decimals),
    domain,
    capabilities,
    supports: { eip3009, eip2612, erc5267 },
  };
}

export function createTokenService({
  chain,
  ttlMs = 5 * 60_000,
  resolveChain,
}: {
  chain: ChainConfig;
  ttlMs?: number;
  /** Resolves a test clock's own chain too (issue 39): the hosted enrolment page reads the token on a wallet's clock chain. */
  resolveChain?: ChainResolver;
}) {
  const settingsOf = (livemode: boolean, chainId?: number): Promise<ChainSettings> =>
    resolveChain ? resolveChain(livemode, chainId) : Promise.resolve(chainFor(chain, livemode, chainId));
  const cache = new Map<string, { expiresAt: number; info: Promise<TokenInfo> }>();

  /** Token facts on one chain, cached for ttlMs (a failed probe is not cached). */
  function describe(settings: ChainSettings, tokenAddress: Address): Promise<TokenInfo> {
    const key = `${settings.chainId}:${settings.rpcUrl}:${tokenAddress.toLowerCase()}`;
    const hit = cache.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.info;
    const info = probe(publicClientFor(settings), settings.chainId, getAddress(tokenAddress));
    cache.set(key, { expiresAt: Date.now() + ttlMs, info });
    info.catch(() => cache.delete(key));
    return info;
  }

  return {
    describe,

    async get(tokenAddress: string, mode: 'test' | 'live', chainId?: number): Promise<Token> {
      const settings = await settingsOf(mode === 'live', chainId);
      const info = await describe(settings, getAddress(tokenAddress));
      return { ...info, livemode: settings.livemode };
    },

    async permitNonce(tokenAddress: string, owner: string, mode: 'test' | 'live', chainId?: number): Promise<PermitNonce> {
      const settings = await settingsOf(mode === 'live', chainId);
      const info = await describe(settings, getAddress(tokenAddress));
      if (!info.supports.eip2612) {
        throw new NotFoundError(`The token at ${info.address} does not support EIP-2612 permits.`, { param: 'address' });
      }
      const nonce = await publicClientFor(settings).readContract({
        address: info.address as Address,
        abi: fiatTokenAbi,
        functionName: 'nonces',
        args: [getAddress(owner)],
      });
      return { object: 'permit_nonce', token: info.address, owner: getAddress(owner), nonce: nonce.toString() };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
