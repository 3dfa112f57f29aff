// Authenticated reads against the real api beside a bare Fastify + postgres
// route running the same query, on the same machine, in one run.
// Run: npx tsx bench/api-reads.ts [--seconds 10] [--connections 50]
import autocannon from 'autocannon';
import { issueKey } from '../src/api-keys/service.js';
import { SCOPES } from '../src/api-keys/scopes.js';
import { createSql } from '../src/db/client.js';
import { createMerchant } from '../src/merchants/service.js';
import { insertPlan } from '../src/subscription-plans/repo.js';
import { newId } from '../src/ids.js';
import { benchDatabase, freePort, startServer } from './support.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const seconds = option('seconds', 10);
const connections = option('connections', 50);

const database = await benchDatabase();
const sql = createSql(database.url, { max: 2 });
const merchant = await createMerchant(sql, { name: 'Bench' });
const { secret } = await issueKey(sql, { merchantId: merchant.id, livemode: false, kind: 'secret', scopes: SCOPES, actor: 'bench' });
for (let i = 0; i < 30; i++) {
  await insertPlan(sql, {
    id: newId('plan'),
    merchantId: merchant.id,
    livemode: false,
    name: `Plan ${i}`,
    amount: '10000000',
    currency: 'USDC',
    interval: 'monthly',
    intervalCount: 1,
    trialPeriodDays: 0,
  });
}
await sql.end();

const apiPort = await freePort();
const barePort = await freePort();
// Limits are raised: one client machine would otherwise hit 600 requests/minute per IP at once.
const api = await startServer('bench/servers/api.ts', {
  DATABASE_URL: database.url,
  PORT: String(apiPort),
  RATE_LIMIT_PER_IP_PER_MINUTE: '100000000',
  RATE_LIMIT_PER_KEY_PER_MINUTE: '100000000',
});
const bare = await startServer('bench/servers/bare.ts', {
  DATABASE_URL: database.url,
  PORT: String(barePort),
  BENCH_MERCHANT_ID: merchant.id,
});

async function load(url: string, headers: Record<string, string>) {
  // A short warm-up, then the measured run.
  await autocannon({ url, headers, connections, duration: 2 });
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, total: result.requests.total };
}

try {
  const bareResult = await load(`http://127.0.0.1:${barePort}/plans`, {});
  const apiResult = await load(`http://127.0.0.1:${apiPort}/v1/subscription-plans`, { authorization: `Bearer ${secret}` });
  console.log(`\nAuthenticated GET /v1/subscription-plans vs bare Fastify + postgres, ${connections} connections, ${seconds}s each`);
  console.table([
    { target: 'bare route', 'req/s': Math.round(bareResult.rps), 'p99 ms': bareResult.p99, requests: bareResult.total },
    { target: 'api (authenticated)', 'req/s': Math.round(apiResult.rps), 'p99 ms': apiResult.p99, requests: apiResult.total },
  ]);
  const ratio = apiResult.rps / bareResult.rps;
  console.log(`ratio api/bare: ${(ratio * 100).toFixed(1)}% (target >= 50%)`);
} finally {
  api.kill('SIGTERM');
  bare.kill('SIGTERM');
  await database.stop();
}
