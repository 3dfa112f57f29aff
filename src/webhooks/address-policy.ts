// Which network addresses a webhook may be sent to (pure: no I/O). Only public
// unicast addresses pass: private (RFC 1918), loopback, link-local (including
// the 169.254.169.254 metadata address), CGNAT, unspecified, broadcast,
// multicast, reserved and documentation ranges, IPv6 loopback, unique-local,
// link-local, and every IPv6 form that embeds an IPv4 address (IPv4-mapped,
// NAT64, 6to4, Teredo) are refused. Numeric host spellings that hide an
// address (2130706433, 0177.0.0.1, 0x7f000001, 127.1) are read as the address
// they denote before they are classified.
import ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: true; address: string; range: 'unicast' } | { allowed: false; address: string; range: string };

/**
 * Reads a host as an IP literal in any spelling a URL parser or a resolver
 * would accept (dotted, decimal, octal, hex, short forms, bracketed IPv6), or
 * returns null when it is a name.
 */
export function parseIpLiteral(host: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare);
  // ipaddr.js accepts the classic inet_aton spellings: 127.1, 2130706433, 0177.0.0.1, 0x7f000001.
  if (ipaddr.IPv4.isValid(bare)) return ipaddr.IPv4.parse(bare);
  // The WHATWG URL parser also accepts mixed forms such as 0x7f.1; let it decide.
  try {
    const normalised = new URL(`https://${bare}/`).hostname;
    if (normalised !== bare.toLowerCase() && ipaddr.IPv4.isValid(normalised)) return ipaddr.IPv4.parse(normalised);
  } catch {
    // not a host at all: not an IP literal either
  }
  return null;
}

/** The verdict for one address (any spelling of an IP literal). */
export function classifyAddress(input: string): AddressVerdict {
  const parsed = parseIpLiteral(input);
  if (!parsed) return { allowed: false, address: input, range: 'invalid' };
  let address: ipaddr.IPv4 | ipaddr.IPv6 = parsed;
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    // ::ffff:a.b.c.d reaches a.b.c.d: judge it as that IPv4 address.
    address = (address as ipaddr.IPv6).toIPv4Address();
    const inner = address.range();
    return inner === 'unicast'
      ? { allowed: false, address: parsed.toString(), range: 'ipv4Mapped' }
      : { allowed: false, address: parsed.toString(), range: `ipv4Mapped:${inner}` };
  }
  const range = address.range();
  if (range === 'unicast') return { allowed: true, address: address.toString(), range };
  return { allowed: false, address: address.toString(), range };
}

/** True when every address is public; an empty list is not. */
export function allPublic(addresses: readonly string[]): boolean {
  return addresses.length > 0 && addresses.every((a) => classifyAddress(a).allowed);
}
