// The baseline: a bare Fastify route running the same query as
// GET /v1/subscription-plans, with no auth, validation or logging.
import Fastify from 'fastify';
import { createSql } from '../../src/db/client.js';

const sql = createSql(process.env.DATABASE_URL!, { max: 10 });
const merchantId = process.env.BENCH_MERCHANT_ID!;
const app = Fastify();
app.get('/plans', async () => {
  const rows = await sql`
    select id, merchant_id as "merchantId", livemode, name, amount::text as amount, currency, interval,
           interval_count as "intervalCount", trial_period_days as "trialPeriodDays", created_at as "createdAt"
    from subscription_plans where merchant_id = ${merchantId} and livemode = false
    order by id desc limit 26`;
  return { data: rows.slice(0, 25), hasMore: rows.length > 25 };
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.send?.('ready');
