/**
 * A contract's EIP-712 domain, read from the contract and never assumed. The one place every signer,
 * verifier, page and bench gets a token's (or the SubscriptionManager's) signing domain from.
 *
 * In order:
 *  1. ERC-5267 `eip712Domain()` (OpenZeppelin's EIP712, the SubscriptionManager);
 *  2. `name()` and `version()` (Circle's USDC has no ERC-5267); a token without `version()` whose
 *     `DOMAIN_SEPARATOR()` matches version "1" gets "1";
 *  3. a per-chain known value (KNOWN_TOKEN_DOMAINS) for a token whose domain cannot be read.
 * Whenever the contract exposes `DOMAIN_SEPARATOR()`, a domain from 2 or 3 must hash to it: a token whose
 * `version()` is not its signing version is caught here rather than by every signature failing.
 * Results are cached per chain, node and address for the life of the process (failures are not).
 */
import { type Address, type Hex, type PublicClient, domainSeparator, getAddress, type TypedDataDomain } from 'viem';

export interface ContractDomain extends TypedDataDomain {
  name: string;
  version: string;
  chainId: bigint;
  verifyingContract: Address;
}

export type DomainSource = 'erc5267' | 'name-version' | 'known';

export interface ReadDomain {
  domain: ContractDomain;
  source: DomainSource;
}

type KnownDomain = { name: string; version: string };
export type KnownDomains = Readonly<Record<number, Readonly<Record<string, KnownDomain>>>>;

/** Circle's USDC per chain (addresses lowercase). Base Sepolia's USDC is named "USDC", not "USD Coin". */
export const KNOWN_TOKEN_DOMAINS: KnownDomains = Object.freeze({
  1: { '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48': { name: 'USD Coin', version: '2' } },
  10: { '0x0b2c639c533813f4aa9d7837caf62653d097ff85': { name: 'USD Coin', version: '2' } },
  137: { '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359': { name: 'USD Coin', version: '2' } },
  8453: { '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913': { name: 'USD Coin', version: '2' } },
  42161: { '0xaf88d065e77c8cc2239327c5edb3a432268e5831': { name: 'USD Coin', version: '2' } },
  84532: { '0x036cbd53842c5426634e7929541ec2318f3dcf7e': { name: 'USDC', version: '2' } },
});

export class NoDomainError extends Error {
  constructor(address: Address, chainId: number) {
    super(
      `The contract at ${address} on chain ${chainId} has no readable EIP-712 domain (no eip712Domain(), name() and version(), or known value).`,
    );
    this.name = 'NoDomainError';
  }
}

const domainAbi = [
  {
    type: 'function',
    name: 'eip712Domain',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'fields', type: 'bytes1' },
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
      { name: 'salt', type: 'bytes32' },
      { name: 'extensions', type: 'uint256[]' },
    ],
  },
  { type: 'function', name: 'name', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'string' }] },
  { type: 'function', name: 'version', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'string' }] },
  { type: 'function', name: 'DOMAIN_SEPARATOR', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'bytes32' }] },
] as const;

const cache = new Map<string, Promise<ReadDomain>>();

/** The contract's EIP-712 domain and where it came from (cached). Throws NoDomainError when there is none. */
export async function readDomainWithSource(
  client: PublicClient,
  address: Address,
  options: { known?: KnownDomains } = {},
): Promise<ReadDomain> {
  const chainId = client.chain?.id ?? (await client.getChainId());
  const node = (client.transport as { url?: string }).url ?? client.uid;
  const key = `${chainId}:${node}:${address.toLowerCase()}:${options.known ? 'custom' : 'default'}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = discover(client, getAddress(address), chainId, options.known ?? KNOWN_TOKEN_DOMAINS);
    cache.set(key, hit);
    hit.catch(() => cache.delete(key));
  }
  return hit;
}

/** The contract's EIP-712 domain (see readDomainWithSource). */
export async function readDomain(client: PublicClient, address: Address, options: { known?: KnownDomains } = {}): Promise<ContractDomain> {
  return (await readDomainWithSource(client, address, options)).domain;
}

async function discover(client: PublicClient, address: Address, chainId: number, known: KnownDomains): Promise<ReadDomain> {
  const read = <F extends 'eip712Domain' | 'name' | 'version' | 'DOMAIN_SEPARATOR'>(functionName: F) =>
    client.readContract({ address, abi: domainAbi, functionName }).catch(() => undefined);
  const erc5267 = await read('eip712Domain');
  if (erc5267) {
    const [, name, version, domainChainId, verifyingContract] = erc5267;
    return { domain: { name, version, chainId: domainChainId, verifyingContract: getAddress(verifyingContract) }, source: 'erc5267' };
  }
  const [name, version, separator] = await Promise.all([read('name'), read('version'), read('DOMAIN_SEPARATOR')]);
  const domainOf = (d: KnownDomain): ContractDomain => ({
    name: d.name,
    version: d.version,
    chainId: BigInt(chainId),
    verifyingContract: address,
  });
  const fits = (d: ContractDomain) => separator === undefined || domainSeparator({ domain: d }) === (separator as Hex);
  if (name !== undefined) {
    // Without version(), "1" only when DOMAIN_SEPARATOR() proves it (tokens built on the EIP-2612 draft).
    const candidate =
      version !== undefined ? domainOf({ name, version }) : separator !== undefined ? domainOf({ name, version: '1' }) : undefined;
    if (candidate && fits(candidate)) return { domain: candidate, source: 'name-version' };
  }
  const entry = known[chainId]?.[address.toLowerCase()];
  if (entry && fits(domainOf(entry))) return { domain: domainOf(entry), source: 'known' };
  throw new NoDomainError(address, chainId);
}
