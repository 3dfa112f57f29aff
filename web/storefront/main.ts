// Entry of the store page script (built to /store/assets/store.js): the buy
// buttons POST the purchase (same origin, no key), then go to the hosted
// checkout it names. Images that fail to load give way to the product's
// initial. Everything it needs is in the server's HTML (src/storefront/page.ts).
import { checkoutPathOf, purchaseRefusal } from './refusal.js';

function start(root: HTMLElement): void {
  const message = document.getElementById('message')!;
  const show = (kind: string, text: string) => {
    message.setAttribute('data-kind', kind);
    message.textContent = text;
  };

  const fallback = (img: HTMLImageElement) => {
    const span = document.createElement('span');
    span.className = img.parentElement?.classList.contains('media') ? 'initial' : 'mark';
    span.textContent = img.getAttribute('data-fallback') || '';
    if (span.className === 'mark') span.setAttribute('aria-hidden', 'true');
    img.replaceWith(span);
  };
  for (const img of Array.from(document.querySelectorAll<HTMLImageElement>('img[data-fallback]'))) {
    if (img.complete && img.naturalWidth === 0 && img.getAttribute('src')) fallback(img);
    else img.addEventListener('error', () => fallback(img));
  }

  const buttons = () => Array.from(root.querySelectorAll<HTMLButtonElement>('button[data-purchase-path]'));
  let busy = false;

  // Back from the checkout (page restored from the back-forward cache): the buttons work again.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    busy = false;
    for (const button of buttons()) {
      button.disabled = false;
      button.textContent = button.getAttribute('data-label') || button.textContent;
    }
  });

  for (const button of buttons()) {
    const label = button.textContent ?? '';
    button.setAttribute('data-label', label);
    button.addEventListener('click', () => {
      if (busy) return;
      busy = true;
      button.disabled = true;
      button.textContent = 'Opening checkout…';
      show('info', '');
      void purchase(button.getAttribute('data-purchase-path')!).catch((error: unknown) => {
        show('error', (error as Error | null)?.message || 'The network failed. Please try again.');
        button.disabled = false;
        button.textContent = label;
        busy = false;
      });
    });
  }
}

async function purchase(path: string): Promise<void> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: '{}',
    credentials: 'omit',
  });
  const body: unknown = await response.json().catch(() => null);
  const checkoutPath = response.ok ? checkoutPathOf(body) : null;
  if (checkoutPath) return location.assign(checkoutPath);
  throw new Error(purchaseRefusal(response.status, body as Parameters<typeof purchaseRefusal>[1], response.headers.get('retry-after')));
}

const root = document.getElementById('store');
if (root) start(root);
