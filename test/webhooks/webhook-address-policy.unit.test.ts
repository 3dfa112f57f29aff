import { describe, expect, it } from 'vitest';
import { classifyAddress, parseIpLiteral } from '../../src/webhooks/address-policy.js';
import { checkTarget, TargetRefusedError, type Resolver } from '../../src/webhooks/targets.js';

describe('webhook address policy', () => {
  it.each([
    // [address, allowed, range]
    ['8.8.8.8', true, 'unicast'],
    ['1.1.1.1', true, 'unicast'],
    ['2606:4700:4700::1111', true, 'unicast'],
    ['10.0.0.1', false, 'private'],
    ['172.16.5.4', false, 'private'],
    ['172.31.255.255', false, 'private'],
    ['192.168.1.1', false, 'private'],
    ['127.0.0.1', false, 'loopback'],
    ['127.255.255.254', false, 'loopback'],
    ['169.254.169.254', false, 'linkLocal'],
    ['169.254.0.1', false, 'linkLocal'],
    ['100.64.0.1', false, 'carrierGradeNat'],
    ['100.127.255.254', false, 'carrierGradeNat'],
    ['0.0.0.0', false, 'unspecified'],
    ['224.0.0.1', false, 'multicast'],
    ['239.255.255.250', false, 'multicast'],
    ['255.255.255.255', false, 'broadcast'],
    ['240.0.0.1', false, 'reserved'],
    ['192.0.2.10', false, 'reserved'],
    ['198.18.0.1', false, 'reserved'],
    ['::1', false, 'loopback'],
    ['::', false, 'unspecified'],
    ['fc00::1', false, 'uniqueLocal'],
    ['fd12:3456:789a::1', false, 'uniqueLocal'],
    ['fe80::1', false, 'linkLocal'],
    ['ff02::1', false, 'multicast'],
    ['2001:db8::1', false, 'reserved'],
    ['64:ff9b::a00:1', false, 'rfc6052'],
    ['2002:a00:1::1', false, '6to4'],
    ['2001::1', false, 'teredo'],
    // IPv4-mapped IPv6 forms
    ['::ffff:127.0.0.1', false, 'ipv4Mapped:loopback'],
    ['::ffff:7f00:1', false, 'ipv4Mapped:loopback'],
    ['::ffff:10.0.0.1', false, 'ipv4Mapped:private'],
    ['::ffff:169.254.169.254', false, 'ipv4Mapped:linkLocal'],
    ['::ffff:100.64.0.1', false, 'ipv4Mapped:carrierGradeNat'],
    ['[::ffff:192.168.0.1]', false, 'ipv4Mapped:private'],
    ['::ffff:8.8.8.8', false, 'ipv4Mapped'],
    // numeric spellings that hide an address
    ['2130706433', false, 'loopback'],
    ['0177.0.0.1', false, 'loopback'],
    ['0x7f000001', false, 'loopback'],
    ['0x7f.1', false, 'loopback'],
    ['127.1', false, 'loopback'],
    ['0x7f.0.0.1', false, 'loopback'],
    ['017700000001', false, 'loopback'],
    ['3232235777', false, 'private'],
    ['0xa9fea9fe', false, 'linkLocal'],
    ['10.1', false, 'private'],
    ['0', false, 'unspecified'],
    ['not-an-address', false, 'invalid'],
  ])('%s -> allowed=%s (%s)', (address, allowed, range) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(allowed);
    expect(verdict.range).toBe(range);
  });

  it('reads numeric host spellings as the address they denote', () => {
    for (const spelling of ['2130706433', '0177.0.0.1', '0x7f000001', '127.1', '0x7f.1']) {
      expect(parseIpLiteral(spelling)?.toString()).toBe('127.0.0.1');
      // the URL parser agrees: this is where a request would really go
      expect(new URL(`https://${spelling}/`).hostname).toBe('127.0.0.1');
    }
    expect(parseIpLiteral('example.com')).toBeNull();
  });
});

describe('webhook target check', () => {
  const dns: Record<string, string[]> = {
    'public.example': ['93.184.216.34'],
    'dual.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'internal.example': ['10.1.2.3'],
    'metadata.example': ['169.254.169.254'],
    'mixed.example': ['93.184.216.34', '192.168.0.10'],
    'mapped.example': ['::ffff:127.0.0.1'],
    'v6local.example': ['fd00::5'],
  };
  const resolver: Resolver = async (host) => dns[host] ?? [];
  const policy = { resolver, allowPrivateTargets: false };

  const refused = async (url: string, livemode = false) => {
    try {
      await checkTarget(url, policy, livemode);
    } catch (error) {
      expect(error).toBeInstanceOf(TargetRefusedError);
      return (error as TargetRefusedError).reason;
    }
    throw new Error(`${url} was accepted`);
  };

  it('accepts an https URL whose every address is public and connects to a checked address', async () => {
    const target = await checkTarget('https://dual.example:8443/hooks?x=1', policy, true);
    expect(target).toMatchObject({ hostname: 'dual.example', port: 8443, address: '93.184.216.34' });
    expect(target.url.pathname).toBe('/hooks');
  });

  it.each([
    ['http://public.example/hook', 'scheme'],
    ['ftp://public.example/hook', 'scheme'],
    ['https://user:pw@public.example/hook', 'credentials'],
    ['not a url', 'invalid_url'],
    ['https://nowhere.example/hook', 'unresolvable'],
    ['https://internal.example/hook', 'address_not_allowed'],
    ['https://metadata.example/latest', 'address_not_allowed'],
    ['https://mixed.example/hook', 'address_not_allowed'],
    ['https://mapped.example/hook', 'address_not_allowed'],
    ['https://v6local.example/hook', 'address_not_allowed'],
    ['https://127.0.0.1/hook', 'address_not_allowed'],
    ['https://2130706433/hook', 'address_not_allowed'],
    ['https://0177.0.0.1/hook', 'address_not_allowed'],
    ['https://0x7f000001/hook', 'address_not_allowed'],
    ['https://127.1/hook', 'address_not_allowed'],
    ['https://[::1]/hook', 'address_not_allowed'],
    ['https://[::ffff:169.254.169.254]/hook', 'address_not_allowed'],
    ['https://[fe80::1]/hook', 'address_not_allowed'],
    ['https://100.64.1.1/hook', 'address_not_allowed'],
  ])('refuses %s (%s)', async (url, reason) => {
    expect(await refused(url)).toBe(reason);
  });

  it('allows private targets only with the explicit setting and never in live mode', async () => {
    const local = { resolver, allowPrivateTargets: true };
    await expect(checkTarget('https://internal.example/hook', local, false)).resolves.toMatchObject({ address: '10.1.2.3' });
    await expect(checkTarget('https://127.0.0.1:9/hook', local, false)).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(checkTarget('https://internal.example/hook', local, true)).rejects.toMatchObject({ reason: 'address_not_allowed' });
    // the scheme rule still holds
    await expect(checkTarget('http://internal.example/hook', local, false)).rejects.toMatchObject({ reason: 'scheme' });
  });
});
