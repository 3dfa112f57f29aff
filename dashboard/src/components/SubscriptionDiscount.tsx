// A subscription's discount (issue 40): what it takes off and for how long, and the merchant's actions:
// apply a coupon (replacing the discount there is) or remove the discount.
import { useEffect, useState } from 'react';
import { api, listAll } from '../api.ts';
import { describeCoupon } from '../coupons.ts';
import { formatDate } from '../format.ts';
import type { Coupon, Subscription } from '../types.ts';
import { ConfirmButton } from './ConfirmButton.tsx';
import { ErrorMessage } from './ErrorMessage.tsx';
import { ActionButton } from './Form.tsx';

/** "Spring 20: 20% off, 3 periods (2 periods left, until 30 Apr 2027)". */
export function discountSummary(discount: NonNullable<Subscription['discount']>): string {
  const left =
    discount.periodsRemaining === null
      ? ''
      : ` (${discount.periodsRemaining} period${discount.periodsRemaining === 1 ? '' : 's'} left${discount.end ? `, until ${formatDate(discount.end)}` : ''})`;
  return `${discount.coupon.name ? `${discount.coupon.name}: ` : ''}${describeCoupon(discount.coupon)}${left}`;
}

export function SubscriptionDiscountActions({ subscription, onChanged }: { subscription: Subscription; onChanged: () => void }) {
  const [coupons, setCoupons] = useState<Coupon[]>([]);
  const [couponId, setCouponId] = useState('');
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    listAll<Coupon>('/v1/coupons').then((all) => setCoupons(all.filter((c) => c.valid)), setError);
  }, []);
  const path = `/v1/subscriptions/${encodeURIComponent(subscription.id)}/discount`;
  return (
    <div className="actions" role="group" aria-label="Discount">
      {coupons.length > 0 && (
        <>
          <label className="inline-field">
            Coupon
            <select value={couponId} onChange={(event) => setCouponId(event.target.value)}>
              <option value="">Choose a coupon</option>
              {coupons.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name ? `${c.name} (${describeCoupon(c)})` : describeCoupon(c)}
                </option>
              ))}
            </select>
          </label>
          <ActionButton
            label={subscription.discount ? 'Replace discount' : 'Apply coupon'}
            action={async () => {
              if (!couponId) throw new Error('Choose a coupon first.');
              await api.post(path, { coupon: couponId });
              onChanged();
            }}
          />
        </>
      )}
      {subscription.discount && (
        <ConfirmButton
          label="Remove discount"
          question="Remove the discount? The next charge pulls the full amount."
          confirmLabel="Remove"
          onConfirm={() => api.delete(path).then(onChanged, setError)}
        />
      )}
      <ErrorMessage error={error} />
    </div>
  );
}
