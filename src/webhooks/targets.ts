// Where a webhook may go: the URL rules checked at registration and again at
// every delivery. Resolution goes through an injectable resolver so tests can
// make a name resolve anywhere; the sender connects to the address checked
// here, so a DNS answer that changes between check and connect (rebinding)
// never reaches an internal address.
import { lookup } from 'node:dns/promises';
import { classifyAddress, parseIpLiteral } from './address-policy.js';

/** Every address a host name resolves to. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};

export type TargetPolicy = {
  resolver: Resolver;
  /** Local receivers (development and tests): private addresses are allowed, never in live mode. */
  allowPrivateTargets: boolean;
};

export type CheckedTarget = {
  url: URL;
  /** The name for TLS SNI, certificate validation and the Host header. */
  hostname: string;
  port: number;
  /** The address to connect to: one that passed the check. */
  address: string;
};

export class TargetRefusedError extends Error {
  constructor(
    message: string,
    readonly reason: 'invalid_url' | 'scheme' | 'credentials' | 'unresolvable' | 'address_not_allowed',
  ) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

/** Syntax rules only (no DNS): https, a host, no credentials in the URL. */
export function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefusedError('The URL is not valid.', 'invalid_url');
  }
  if (url.protocol !== 'https:') throw new TargetRefusedError('The URL must use https://.', 'scheme');
  if (url.username || url.password) throw new TargetRefusedError('The URL must not contain credentials.', 'credentials');
  if (!url.hostname) throw new TargetRefusedError('The URL has no host.', 'invalid_url');
  return url;
}

function stripBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Resolves the URL's host and checks every address. Throws TargetRefusedError
 * when the host does not resolve or any address is not allowed.
 */
export async function checkTarget(raw: string, policy: TargetPolicy, livemode: boolean): Promise<CheckedTarget> {
  const url = parseTargetUrl(raw);
  const hostname = stripBrackets(url.hostname);
  const literal = parseIpLiteral(hostname);
  let addresses: string[];
  if (literal) {
    addresses = [literal.toString()];
  } else {
    try {
      addresses = await policy.resolver(hostname);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw new TargetRefusedError(`The host ${hostname} does not resolve in DNS.`, 'unresolvable');
  }
  const allowPrivate = policy.allowPrivateTargets && !livemode;
  for (const address of addresses) {
    const verdict = classifyAddress(address);
    if (!verdict.allowed && !(allowPrivate && verdict.range !== 'invalid')) {
      throw new TargetRefusedError(
        `The host ${hostname} resolves to an address that is not public (${verdict.range}).`,
        'address_not_allowed',
      );
    }
  }
  const port = url.port ? Number(url.port) : 443;
  return { url, hostname, port, address: addresses[0]! };
}
