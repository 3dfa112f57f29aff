// Pure logic of the hosted pages (web/) and the server's JSON island, without a browser.
import { encodeFunctionData, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { escapeJsonForScript, jsonIsland } from '../../src/hosted-pages/json-island.js';
import {
  countdown,
  discountLine,
  isExpired,
  planPeriod,
  refusalText,
  relayMessage,
  safeRedirectUrl,
  statusMessage,
} from '../../web/checkout/messages.js';
import { transferTypedData } from '../../web/checkout/typed-data.js';
import { formatTokenAmount } from '../../web/shared/money.js';
import { ApiError, fieldRefusal } from '../../web/shared/errors.js';
import { balanceOfCall, isBlacklistedCall, pausedCall } from '../../web/shared/token-calls.js';
import { doorRefusal } from '../../web/shared/wallet.js';
import { checkoutPathOf, purchaseRefusal } from '../../web/storefront/refusal.js';

const abi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function isBlacklisted(address) view returns (bool)',
  'function paused() view returns (bool)',
]);
const who = '0x00000000000000000000000000000000000000ab';

describe('JSON island', () => {
  it('cannot be closed or commented out by a value, and parses back to the same value', () => {
    const value = { name: '</script><script>alert(1)</script>', c: '<!-- x -->', amp: 'a&b', ls: '\u2028' };
    const text = escapeJsonForScript(value);
    expect(text).not.toMatch(/<|>|&/);
    expect(JSON.parse(text)).toEqual(value);
    const html = jsonIsland('checkout-data', value);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain('<!--');
    expect(() => jsonIsland('x"><script>', {})).toThrow();
  });
});

describe('token calls', () => {
  it("match viem's encoder", () => {
    expect(balanceOfCall(who)).toBe(encodeFunctionData({ abi, functionName: 'balanceOf', args: [who] }));
    expect(isBlacklistedCall(who)).toBe(encodeFunctionData({ abi, functionName: 'isBlacklisted', args: [who] }));
    expect(pausedCall()).toBe(encodeFunctionData({ abi, functionName: 'paused' }));
  });
  it('the door names the payer first, then the payee, then the pause', () => {
    expect(doorRefusal(true, true, true)).toBe('payer_blacklisted');
    expect(doorRefusal(false, true, true)).toBe('merchant_blacklisted');
    expect(doorRefusal(false, false, true)).toBe('token_paused');
    expect(doorRefusal(false, false, false)).toBeNull();
  });
});

describe('checkout messages', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('says why a session cannot be paid, on the session status and the clock', () => {
    expect(statusMessage({ status: 'open', expiresAt: '2026-01-01T00:10:00Z' }, now)).toBeNull();
    expect(isExpired({ status: 'open', expiresAt: '2025-12-31T23:59:59Z' }, now)).toBe(true);
    expect(statusMessage({ status: 'open', expiresAt: '2025-12-31T23:59:59Z' }, now)?.[0]).toBe('error');
    expect(statusMessage({ status: 'completed', expiresAt: '2026-01-01T00:10:00Z' }, now)?.[0]).toBe('success');
    expect(statusMessage({ status: 'processing', expiresAt: '2026-01-01T00:10:00Z' }, now)?.[0]).toBe('info');
  });
  it('counts down, names refusals, relays API errors, follows only http(s)', () => {
    // Days and hours, never minutes alone: a session can be open for weeks (src/time/duration-text.ts).
    expect(countdown('2026-01-01T00:04:07Z', now)).toBe('Expires in 4 min 7 s');
    expect(countdown('2025-01-01T00:00:00Z', now)).toBe('Expired');
    expect(countdown('2026-01-01T03:05:30Z', now)).toBe('Expires in 3 hours 5 min');
    expect(countdown('2027-01-15T01:00:00Z', now)).toBe('Expires in 379 days 1 hour');
    expect(refusalText('token_paused')).toMatch(/paused/);
    expect(refusalText('toString')).toBeNull();
    expect(relayMessage({ code: 'invalid_request', details: { refusalCode: 'payer_blacklisted' } }, 'x')).toMatch(/blocked/);
    expect(relayMessage({ code: 'session_invalid_state' }, 'x')).toMatch(/can no longer be paid/);
    expect(relayMessage({ code: 'boom', message: 'm' }, 'x')).toBe('The payment could not be submitted: m');
    expect(safeRedirectUrl('javascript:alert(1)')).toBeNull();
    expect(safeRedirectUrl('https://shop.test/ok')).toBe('https://shop.test/ok');
    expect(planPeriod('monthly', 1)).toBe(' per month');
    expect(planPeriod('weekly', 3)).toBe(' every 3 weeks');
  });
  it('says under the amount how many periods a promotion code discounts and what comes after', () => {
    const price = (units: string) => formatTokenAmount(units, 6, 'USDC');
    const spring = { promotionCode: 'SPRING20', couponName: 'Spring 20', discountedAmount: '8000000', periods: 3 };
    expect(discountLine(spring, { interval: 'monthly', intervalCount: 1 }, '10000000', price)).toBe(
      'For the first 3 months, then 10.00 USDC per month (SPRING20: Spring 20).',
    );
    expect(discountLine({ ...spring, periods: 1, couponName: null }, { interval: 'weekly', intervalCount: 2 }, '10000000', price)).toBe(
      'For the first period, then 10.00 USDC every 2 weeks (SPRING20).',
    );
    expect(discountLine({ ...spring, periods: null }, { interval: 'monthly', intervalCount: 1 }, '10000000', price)).toBe(
      'With SPRING20: Spring 20, every period.',
    );
  });
  it('shows a refusal under the field it names, and only there', () => {
    const refused = new ApiError(
      'm',
      { code: 'invalid_request', param: 'promotionCode', message: 'The promotion code X has expired.' },
      400,
    );
    expect(fieldRefusal(refused, 'promotionCode')).toBe('The promotion code X has expired.');
    expect(fieldRefusal(refused, 'terms')).toBeUndefined();
    expect(fieldRefusal(new Error('x'), 'promotionCode')).toBeUndefined();
  });
  it('formats amounts with the server formatter and signs what is still due', () => {
    expect(formatTokenAmount(1500000n, 6, 'USDC')).toBe('1.50 USDC');
    expect(formatTokenAmount('1234000000', 6, 'USDC')).toBe('1,234.00 USDC');
    const data = transferTypedData(
      { payTo: who, amount: '5000000', deposit: { amountRemaining: '2000000' } as never, expiresAt: '2026-01-01T00:10:00Z' },
      { name: 'USDC', version: '2', chainId: 1, verifyingContract: who },
      who,
      '0x01',
      now,
    );
    expect(data.message.value).toBe('2000000');
    expect(data.message.validBefore).toBe(String(now / 1000 + 600));
    expect(data.message.validAfter).toBe(String(now / 1000 - 60));
  });
  // Issue 39: a test clock moved the shared test chain a year ahead; the page signed on the device's
  // time, the relay refused the window against the chain's, and the page blamed the payer's clock.
  it("places the signature's window on the payment chain's time and never blames the payer's clock for it", () => {
    const year = 365 * 86_400_000;
    const session = { payTo: who, amount: '5000000', deposit: null, expiresAt: '2026-01-01T00:10:00Z' };
    const domain = { name: 'USDC', version: '2', chainId: 1, verifyingContract: who };
    for (const chainNow of [now + year, now - 3_600_000, now]) {
      const { message } = transferTypedData(session, domain, who, '0x01', now, chainNow);
      // What the relay checks (src/relay/service.ts): validAfter < chain time < validBefore.
      expect(Number(message.validAfter)).toBeLessThan(chainNow / 1000);
      expect(Number(message.validBefore)).toBeGreaterThan(chainNow / 1000);
      expect(Number(message.validBefore) - chainNow / 1000).toBe(600); // what is left of the session
    }
    for (const param of ['authorization.validBefore', 'authorization.validAfter']) {
      const text = relayMessage({ code: 'invalid_request', param, message: 'The authorization has expired' }, 'x');
      expect(text).not.toMatch(/device|your clock/i);
      expect(text).toMatch(/network's time/);
    }
  });
});

describe('store purchase refusals', () => {
  it('names rate limits, missing products and a shop without a payout address', () => {
    expect(purchaseRefusal(429, null, '7')).toMatch(/in 7 seconds/);
    expect(purchaseRefusal(404, null, null)).toMatch(/no longer on sale/);
    expect(purchaseRefusal(400, { error: { code: 'invalid_request', param: 'payTo' } }, null)).toMatch(/cannot take payments/);
    expect(checkoutPathOf({ checkoutPath: 'https://evil.test' })).toBeNull();
    expect(checkoutPathOf({ checkoutPath: '/checkout/ps_1' })).toBe('/checkout/ps_1');
  });
});
