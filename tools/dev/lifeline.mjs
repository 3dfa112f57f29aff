// Preloaded (`--import`) into the services `npm start` runs (api, worker, indexer). Their stdin is a
// pipe held by the start script: when that script dies outright (SIGKILL, a closed terminal) the pipe
// closes and the service stops itself as on SIGTERM, instead of holding its port for the next start.
// A kill can land between a spawn and its record in .data/processes.json, so the record alone is not
// enough (tools/dev/leftovers.ts). Postgres uses the same lifeline (tools/dev/postgres-process.ts).
// Plain JavaScript: worker threads (Temporal's workflow thread) inherit the preload and cannot load
// TypeScript there; only the main thread holds the lifeline.
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const stopOnce = () => {
    process.stdin.removeAllListeners();
    process.kill(process.pid, 'SIGTERM');
  };
  process.stdin.once('end', stopOnce);
  process.stdin.once('error', stopOnce);
  process.stdin.resume();
  // Reading stdin must not keep a service alive that is otherwise done.
  process.stdin.unref();
}
