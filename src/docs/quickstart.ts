// The quickstart guide of the API docs (/docs/quickstart): keys, a payment session, a webhook
// endpoint and a subscription plan. Its code samples are plain JavaScript (Node 20, ES modules)
// run in order as one script; test/docs/quickstart.test.ts extracts them from here and runs
// them against a test stack, so a sample that stops working fails the build.

export type QuickstartStep = { id: string; heading: string; text: string; code: string };

export const QUICKSTART: QuickstartStep[] = [
  {
    id: 'keys',
    heading: '1. Get a test key',
    text:
      'Sign in to the dashboard, open API keys and issue a secret key in test mode (sk_test_…). Test mode moves no real funds. ' +
      'Keep the key on your server only; every request sends it as a bearer token, and every POST carries an Idempotency-Key so a retry never acts twice.',
    code: `const API = process.env.STABLEPAY_API_URL ?? 'http://localhost:3000';
const KEY = process.env.STABLEPAY_SECRET_KEY; // sk_test_...

async function stablepay(method, path, body) {
  const response = await fetch(API + path, {
    method,
    headers: {
      authorization: 'Bearer ' + KEY,
      ...(body ? { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (!response.ok) throw new Error(json.error.code + ': ' + json.error.message);
  return json;
}`,
  },
  {
    id: 'payment-session',
    heading: '2. Take a payment',
    text:
      'A payment session asks for an amount of USDC, in base units as an integer string (6 decimals: "2500000" is 2.50 USDC). ' +
      'Send your customer to its checkoutUrl; the session turns completed once the payment is confirmed on chain.',
    code: `const session = await stablepay('POST', '/v1/payment-sessions', {
  amount: '2500000',
  metadata: { orderId: 'order-1001' },
});
console.log('Pay here:', session.checkoutUrl, '(' + session.status + ')');`,
  },
  {
    id: 'webhook',
    heading: '3. Hear about it by webhook',
    text:
      'In test mode on your machine, deliveries go to a listener: the service signs them and holds them for whoever reads its stream, and never connects to your machine. ' +
      'npm run listen -- --forward-to http://localhost:4000/hooks starts one for you and forwards each delivery to your local server; the sample below starts one by hand. ' +
      'The signing secret is shown once: keep it to verify the webhook-signature header of each delivery. ' +
      "In live mode, register your public https endpoint the same way with POST /v1/webhook-endpoints and { url: 'https://…', events }.",
    code: `const { endpoint, signingSecret, streamPath } = await stablepay('POST', '/v1/webhook-listeners', {
  events: ['payment.completed'],
});
console.log('Listener', endpoint.id, 'signs with', signingSecret.slice(0, 10) + '...', 'streams at', streamPath);`,
  },
  {
    id: 'subscription',
    heading: '4. Bill every month',
    text:
      'A plan is the price and the period. Customers enrol on the hosted page of the plan with their wallet, which approves the recurring charge once; ' +
      'each period is then charged automatically and reported by subscription events.',
    code: `const plan = await stablepay('POST', '/v1/subscription-plans', {
  name: 'Coffee club',
  amount: '30000000',
  interval: 'monthly',
});
console.log('Enrol here:', API + '/checkout/plans/' + plan.id);`,
  },
];

/** Every sample in order, as one script (the samples share their variables). */
export function quickstartScript(): string {
  return QUICKSTART.map((step) => step.code).join('\n\n');
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const DOCS_TITLE = 'StablePay API';

/** The quickstart as a page (no script; styles inline, as the docs CSP allows). */
export function quickstartHtml(): string {
  const steps = QUICKSTART.map(
    (step) =>
      `<section id="${step.id}"><h2>${escape(step.heading)}</h2><p>${escape(step.text)}</p><pre><code>${escape(step.code)}</code></pre></section>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quickstart · ${DOCS_TITLE}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; color: #1d2433; background: #f5f7fb; }
header { background: #1f3b8a; color: #fff; padding: 14px 24px; display: flex; gap: 24px; align-items: center; flex-wrap: wrap; }
header a { color: #fff; }
main { max-width: 860px; margin: 0 auto; padding: 24px; }
section { background: #fff; border: 1px solid #dde3ee; border-radius: 12px; padding: 16px 20px; margin-bottom: 16px; }
pre { background: #0f172a; color: #e2e8f0; padding: 14px; border-radius: 8px; overflow-x: auto; font-size: 0.85rem; }
</style></head>
<body><header><strong>${DOCS_TITLE}</strong><a href="/docs">API reference</a><a href="/docs/quickstart" aria-current="page">Quickstart</a><a href="/dashboard">Dashboard</a></header>
<main><h1>Quickstart</h1><p>From a test key to a first payment, webhook and subscription in four steps. The samples are JavaScript for Node 20 (an ES module); run them in order.</p>
${steps}
</main></body></html>`;
}

/** The docs logo: the product's mark and name, in place of Swagger's. */
export const DOCS_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="36" viewBox="0 0 180 36"><rect width="36" height="36" rx="8" fill="#2b59c3"/><path d="M11 22c2 2 5 3 8 3 4 0 6-2 6-4 0-5-13-3-13-9 0-3 3-5 7-5 3 0 5 1 7 2" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round"/><text x="46" y="25" font-family="system-ui, sans-serif" font-size="19" font-weight="700" fill="#fff">StablePay API</text></svg>`;

/** Swagger UI's top bar in the product's colours, with a link to the quickstart. */
export const DOCS_CSS = `.swagger-ui .topbar { background: #1f3b8a; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .info .title::after { content: ''; }`;
