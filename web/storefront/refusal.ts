// Why a store purchase was refused, in the shopper's words: a pure function of
// the purchase route's answer (unit-tested in test/unit/hosted-pages.test.ts).
type PurchaseError = { error?: { code?: string; param?: string; message?: string } } | null;

export function purchaseRefusal(status: number, body: PurchaseError, retryAfter: string | null): string {
  const code = body?.error?.code;
  if (status === 429 || code === 'rate_limited') {
    return 'Too many purchases from your network just now. Please try again in ' + (retryAfter || 60) + ' seconds.';
  }
  if (status === 404) return 'This product is no longer on sale. Reload the page to see what is available.';
  if (code === 'invalid_request' && body?.error?.param === 'payTo')
    return 'This shop cannot take payments right now. Please contact the merchant.';
  return body?.error?.message || 'Something went wrong. Please try again.';
}

/** Only a same-origin path is followed after a purchase. */
export function checkoutPathOf(body: unknown): string | null {
  const path = (body as { checkoutPath?: unknown } | null)?.checkoutPath;
  return typeof path === 'string' && path.charAt(0) === '/' ? path : null;
}
