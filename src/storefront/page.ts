// The public store page: server-rendered HTML (every merchant-provided text
// escaped) plus one same-origin script for the buy buttons (built from
// web/storefront/, served by src/hosted-pages/scripts.ts). No key of any kind
// is in the page; a purchase is a POST to /store/{slug}/products/{id}/purchase,
// which answers with the hosted checkout to go to.
import { formatAmount } from '../money/format.js';
import type { Store, StoreProduct } from './schemas.js';

/** Served with the page and its script: scripts and requests only from this origin, images from https. */
export const STORE_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

export const STORE_SCRIPT_PATH = '/store/assets/store.js';

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Re-exported for the storefront's callers; the one server-side money formatter lives in src/money. */
export { formatAmount };

const INTERVAL_NOUNS: Record<string, string> = { daily: 'day', weekly: 'week', monthly: 'month', quarterly: 'quarter', yearly: 'year' };

/** `/ month`, `every 3 months`: the billing period of a subscription product. */
export function formatInterval(interval: string, count: number): string {
  const noun = INTERVAL_NOUNS[interval] ?? interval;
  return count === 1 ? `/ ${noun}` : `every ${count} ${noun}s`;
}

/** Black or white text, whichever reads better on the accent colour (WCAG relative luminance). */
function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return luminance > 0.45 ? '#111418' : '#ffffff';
}

function style(accent: string): string {
  // The accent colour is validated as #rrggbb before it is stored; nothing else merchant-provided reaches the CSS.
  return `
  :root { --accent: ${accent}; --on-accent: ${textOn(accent)}; --ink: #15181d; --muted: #5d6673; --line: #e4e7ec; --bg: #f6f7f9; }
  * { box-sizing: border-box; }
  body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); line-height: 1.45; }
  .band { height: 6px; background: var(--accent); }
  header { max-width: 1080px; margin: 0 auto; padding: 36px 24px 8px; display: flex; gap: 18px; align-items: center; }
  header img { width: 64px; height: 64px; border-radius: 14px; object-fit: cover; background: #fff; border: 1px solid var(--line); flex: none; }
  header .mark { width: 64px; height: 64px; border-radius: 14px; background: var(--accent); color: var(--on-accent); display: grid; place-items: center; font-size: 1.8rem; font-weight: 700; flex: none; }
  h1 { margin: 0; font-size: 1.9rem; letter-spacing: -0.01em; }
  .tagline { margin: 4px 0 0; color: var(--muted); max-width: 60ch; white-space: pre-line; }
  .test-mode { display: inline-block; margin-top: 8px; padding: 2px 10px; border-radius: 999px; background: #fff4d6; color: #7a5200; font-size: .8rem; font-weight: 600; }
  main { max-width: 1080px; margin: 0 auto; padding: 16px 24px 48px; }
  .grid { list-style: none; margin: 0; padding: 0; display: grid; gap: 20px; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); }
  .card { background: #fff; border: 1px solid var(--line); border-radius: 14px; overflow: hidden; display: flex; flex-direction: column; box-shadow: 0 1px 2px rgba(16,24,40,.04); }
  .media { aspect-ratio: 4 / 3; background: color-mix(in srgb, var(--accent) 12%, #fff); display: grid; place-items: center; overflow: hidden; }
  .media img { width: 100%; height: 100%; object-fit: cover; display: block; }
  .media .initial { font-size: 3rem; font-weight: 700; color: var(--accent); }
  .body { padding: 16px 18px 18px; display: flex; flex-direction: column; gap: 8px; flex: 1; }
  .name { margin: 0; font-size: 1.08rem; font-weight: 650; overflow-wrap: anywhere; }
  .description { margin: 0; color: var(--muted); font-size: .93rem; white-space: pre-line; overflow-wrap: anywhere; flex: 1; }
  .price { font-size: 1.35rem; font-weight: 700; margin: 4px 0 2px; }
  .price .currency { font-size: .85rem; font-weight: 600; color: var(--muted); margin-left: 4px; }
  .price .period { font-size: .85rem; font-weight: 500; color: var(--muted); margin-left: 4px; }
  .buy { appearance: none; border: 0; border-radius: 10px; padding: 12px 14px; width: 100%; font: inherit; font-weight: 600; background: var(--accent); color: var(--on-accent); cursor: pointer; }
  .buy:hover { filter: brightness(0.95); }
  .buy:focus-visible { outline: 3px solid color-mix(in srgb, var(--accent) 40%, #fff); outline-offset: 2px; }
  .buy:disabled { opacity: .6; cursor: default; }
  .empty { background: #fff; border: 1px dashed var(--line); border-radius: 14px; padding: 40px; text-align: center; color: var(--muted); }
  #message { min-height: 1.4em; margin: 0 0 14px; }
  #message[data-kind=error] { color: #b42318; }
  footer { max-width: 1080px; margin: 0 auto; padding: 0 24px 40px; color: var(--muted); font-size: .85rem; display: flex; flex-wrap: wrap; gap: 6px 18px; }
  footer a { color: inherit; }
  @media (max-width: 560px) {
    header { padding: 24px 16px 4px; gap: 14px; }
    header img, header .mark { width: 52px; height: 52px; border-radius: 12px; }
    h1 { font-size: 1.45rem; }
    main { padding: 12px 16px 36px; }
    .grid { grid-template-columns: 1fr; gap: 16px; }
    .media { aspect-ratio: 16 / 9; }
    footer { padding: 0 16px 32px; }
  }
`;
}

function frame(title: string, accent: string, body: string, script: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${style(accent)}</style>
</head>
<body>
${body}
${script ? `<script src="${STORE_SCRIPT_PATH}"></script>` : ''}
</body>
</html>
`;
}

function initial(text: string): string {
  const first = Array.from(text.trim())[0] ?? '?';
  return escapeHtml(first.toUpperCase());
}

function productCard(item: StoreProduct): string {
  const media = item.imageUrl
    ? `<img src="${escapeHtml(item.imageUrl)}" alt="" loading="lazy" data-fallback="${initial(item.name)}">`
    : `<span class="initial" aria-hidden="true">${initial(item.name)}</span>`;
  const period =
    item.kind === 'subscription' && item.interval
      ? `<span class="period">${escapeHtml(formatInterval(item.interval, item.intervalCount ?? 1))}</span>`
      : '';
  return `<li class="card" data-product-id="${escapeHtml(item.id)}">
  <div class="media">${media}</div>
  <div class="body">
    <h2 class="name">${escapeHtml(item.name)}</h2>
    ${item.description ? `<p class="description">${escapeHtml(item.description)}</p>` : '<p class="description"></p>'}
    <div class="price">${escapeHtml(formatAmount(item.amount))}<span class="currency">${escapeHtml(item.currency)}</span>${period}</div>
    <button class="buy" type="button" data-purchase-path="${escapeHtml(item.purchasePath)}">${item.kind === 'subscription' ? 'Subscribe' : 'Buy now'}</button>
  </div>
</li>`;
}

/** The public page of a storefront: its active products, each with a buy button. */
export function renderStorePage(store: Store): string {
  const logo = store.logoUrl
    ? `<img src="${escapeHtml(store.logoUrl)}" alt="${escapeHtml(store.name)} logo" data-fallback="${initial(store.name)}">`
    : `<div class="mark" aria-hidden="true">${initial(store.name)}</div>`;
  const products =
    store.products.length > 0
      ? `<ul class="grid">\n${store.products.map(productCard).join('\n')}\n</ul>`
      : '<p class="empty">No products are on sale right now. Please come back later.</p>';
  const support = store.supportEmail
    ? `<span>Questions? <a href="mailto:${escapeHtml(store.supportEmail)}">${escapeHtml(store.supportEmail)}</a></span>`
    : '';
  return frame(
    store.name,
    store.accentColor,
    `<div class="band"></div>
<header>
  ${logo}
  <div>
    <h1>${escapeHtml(store.name)}</h1>
    ${store.description ? `<p class="tagline">${escapeHtml(store.description)}</p>` : ''}
    ${store.livemode ? '' : '<span class="test-mode" title="Payments on this page use test tokens">Test mode</span>'}
  </div>
</header>
<main id="store" data-slug="${escapeHtml(store.slug)}">
  <div id="message" role="status" aria-live="polite"></div>
  ${products}
</main>
<footer>
  ${support}
  <span>Pay in ${escapeHtml(store.products[0]?.currency ?? 'USDC')} with your wallet. Checkout by stablepay.</span>
</footer>`,
    true,
  );
}

export function renderStoreNotFoundPage(): string {
  return frame(
    'Store not found',
    '#5d6673',
    `<div class="band"></div>
<main>
  <div class="empty"><h1>Store not found</h1><p>There is no store at this address. Check the link you were given.</p></div>
</main>`,
    false,
  );
}
