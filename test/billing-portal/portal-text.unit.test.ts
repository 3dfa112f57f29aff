// The portal page's pure parts without a browser: its sentences for a subscription's next charge and
// pending plan change, the discount line, and which page path is a merchant's public portal page.
import { describe, expect, it } from 'vitest';
import { configurationIdOf } from '../../web/portal/sign-in.js';
import { discountLine, nextChargeLine, per, planChangeLine, walletChangeLine, walletRefusalText } from '../../web/portal/text.js';
import type { PortalSubscription } from '../../web/portal/types.js';

const item = (subscription: Partial<PortalSubscription['subscription']>, rest: Partial<PortalSubscription> = {}): PortalSubscription => ({
  subscription: {
    id: 'sub_1',
    planId: 'plan_pro',
    status: 'active',
    amount: '40000000',
    planAmount: '40000000',
    nextChargeAt: '2026-12-01T00:00:00.000Z',
    cancelAtPeriodEnd: false,
    cancelAt: null,
    cancelledAt: null,
    cancellationDetails: null,
    discount: null,
    pendingPlanChange: null,
    ...subscription,
  },
  plan: { id: 'plan_pro', name: 'Pro', amount: '40000000', interval: 'monthly', intervalCount: 1 },
  nextCharge: { amount: '40000000', at: '2026-12-01T00:00:00.000Z' },
  planChangeUrl: null,
  walletChange: null,
  ...rest,
});

describe('the portal page text', () => {
  it('says the next charge, a scheduled cancel, or the cancel', () => {
    expect(nextChargeLine(item({}))).toBe('Next charge 40.00 USDC on 1 Dec 2026');
    expect(nextChargeLine(item({ cancelAtPeriodEnd: true, cancelAt: '2026-12-01T00:00:00.000Z' }, { nextCharge: null }))).toBe(
      'Cancels on 1 Dec 2026; nothing more is charged.',
    );
    // After the period-end cancel happened the flag stays set: the cancel is what is said.
    expect(
      nextChargeLine(
        item(
          { status: 'cancelled', cancelAtPeriodEnd: true, cancelAt: '2026-12-01T00:00:00.000Z', cancelledAt: '2026-12-01T00:00:05.000Z' },
          { nextCharge: null },
        ),
      ),
    ).toBe('Cancelled on 1 Dec 2026');
    expect(nextChargeLine(item({ status: 'completed' }, { nextCharge: null }))).toBe('No further charges.');
  });

  it('says a pending plan change and a discount in the customer’s words', () => {
    const plans = [{ id: 'plan_team', name: 'Team', amount: '25000000', interval: 'monthly', intervalCount: 1 }];
    const change = { planId: 'plan_team', amount: '25000000', effectiveAt: '2026-12-01T00:00:00.000Z' };
    expect(planChangeLine(item({ pendingPlanChange: { ...change, status: 'scheduled' } }), plans)).toBe(
      'Switching to Team (25.00 USDC) on 1 Dec 2026.',
    );
    expect(
      planChangeLine(item({ pendingPlanChange: { ...change, status: 'requires_customer_action', effectiveAt: null } }), plans),
    ).toMatch(/needs your approval/);
    expect(planChangeLine(item({}), plans)).toBeNull();
    const discount = { coupon: { name: 'Spring', percentOff: 20, amountOff: null }, periodsRemaining: 2 };
    expect(discountLine(item({ discount }))).toBe('Spring: 20% off, 2 more periods');
    expect(
      discountLine(item({ discount: { coupon: { name: null, percentOff: null, amountOff: '5000000' }, periodsRemaining: null } })),
    ).toBe('5.00 USDC off every period');
    expect(per({ interval: 'monthly', intervalCount: 3 })).toBe('every 3 months');
  });

  it('knows a merchant’s public portal page by its path', () => {
    expect(configurationIdOf('/billing-portal/c/bpc_01JD8ZX0000000000000000001')).toBe('bpc_01JD8ZX0000000000000000001');
    expect(configurationIdOf('/billing-portal/session')).toBeNull();
    expect(configurationIdOf('/billing-portal/c/')).toBeNull();
  });

  it('says where a move to another wallet stands', () => {
    const move = {
      id: 'swc_1',
      fromWalletAddress: '0x1111111111111111111111111111111111111111',
      walletAddress: '0x2222222222222222222222222222222222222222',
      hostedUrl: 'https://pay.example/checkout/wallet-changes/swc_1?token=t',
      firstChargeAt: null,
      createdAt: '2026-11-01T00:00:00.000Z',
    };
    expect(walletChangeLine(item({}))).toBeNull();
    expect(walletChangeLine(item({}, { walletChange: { ...move, status: 'pending' } }))).toBe(
      'Moving to 0x2222222222222222222222222222222222222222: open the link with that wallet to approve.',
    );
    expect(
      walletChangeLine(
        item({}, { walletChange: { ...move, status: 'applied', hostedUrl: null, firstChargeAt: '2026-12-01T00:00:00.000Z' } }),
      ),
    ).toBe('Charged to 0x2222222222222222222222222222222222222222 from 1 Dec 2026.');
    expect(walletChangeLine(item({}, { walletChange: { ...move, status: 'cancelled', hostedUrl: null } }))).toBeNull();
  });

  it('says what the wallet refused instead of a generic failure', () => {
    expect(walletRefusalText({ code: 4001 })).toMatch(/declined/);
    expect(walletRefusalText({ code: 4200 })).toMatch(/does not support/);
    expect(walletRefusalText({ code: -32601 })).toMatch(/does not support/);
    expect(walletRefusalText({ code: 4902 })).toMatch(/does not know this network/);
    expect(walletRefusalText(new Error('boom'))).toBeNull();
  });
});
