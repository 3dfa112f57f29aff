// Runs after `npm install` (package.json "postinstall"): fixes two faults of the Postgres client
// (porsager/postgres 3.4.9, the latest release; both open upstream) that leave a `sql.reserve()`,
// and so every transaction (src/db/transactions.ts), waiting for ever after Postgres restarts or a
// connection drops. A worker then never finishes the work queued behind it. docs/decisions.md,
// "A reserve always settles", has the details; test/db/db-reserve-recovery.test.ts proves both on a
// real Postgres.
//
// 1. porsager/postgres#1195: when a connection closes, the pool hands the next waiting query to its
//    reconnect. If that is a reserve, the reconnect drops it after its type read and it never
//    settles. Patched: the reserve stays queued (as it does when reserve() starts a connection
//    itself), so the reconnected connection is handed to it.
// 2. A reserve whose own connect failed is rejected but stays queued. A connection opened later is
//    handed to that settled promise and is lost to the pool. Patched: a rejected reserve leaves
//    the queue.
// 3. A reserved handle outlives its connection: once the connection closed, the pool reconnects it
//    for other work, but the old handle's queries (a ROLLBACK after a lost statement) and its
//    release() still reach it, so they wrote into someone else's startup or reservation, and
//    queries queued on the handle were never answered. Patched: each reservation is a token; once
//    the connection closes, the handle's queued and later queries are rejected as
//    CONNECTION_CLOSED and its release() does nothing. Before, such a query on a connection closed
//    and not yet reopened wrote to a null socket: a TypeError thrown from a timer, which ends the
//    process.
// 4. A server's last word before it closes a connection (FATAL 57P01 when a backend is terminated)
//    was kept across the reconnect and failed the reconnected connection's first work with it: the
//    next reserve was rejected with an error of the connection before. Patched: a closed connection
//    forgets it.
//
// Plain JavaScript with no imports: it runs during the install. It edits the library's ESM, CJS
// and workerd builds, is idempotent, and fails the install if the library's code is not the code
// it was written against (a new version: check whether it still needs the fix).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MARKER = 'stablepay patch: reserve always settles';

const EDITS = [
  {
    file: 'index.js',
    before: 'const query = { reserve: resolve, reject }',
    after: `const query = { reserve: resolve, reject: (error) => (queries.remove(query), reject(error)) } // ${MARKER}`,
  },
  {
    file: 'index.js',
    before: 'queries.length && connect(c, queries.shift())',
    after: `queries.length && connect(c, (x => (x.reserve && queries.push(x), x))(queries.shift())) // ${MARKER}`,
  },
  {
    file: 'index.js',
    before: '    move(c, reserved)\n    c.reserved = () => queue.length',
    after: `    move(c, reserved)\n    const reservation = c.reservation = { queue } // ${MARKER} (3)\n    c.reserved = () => queue.length`,
  },
  {
    file: 'index.js',
    before: '    function handler(q) {\n      c.queue === full\n        ? queue.push(q)',
    after: `    function handler(q) {\n      if (c.reservation !== reservation) return q.reject(Errors.connection('CONNECTION_CLOSED', options)) // ${MARKER} (3)\n      c.queue === full\n        ? queue.push(q)`,
  },
  {
    file: 'index.js',
    before: '    sql.release = () => {\n      c.reserved = null\n      onopen(c)',
    after: `    sql.release = () => {\n      if (c.reservation !== reservation) return // ${MARKER} (3)\n      c.reservation = null\n      c.reserved = null\n      onopen(c)`,
  },
  {
    file: 'index.js',
    before: '  function onclose(c, e) {\n    move(c, closed)\n    c.reserved = null\n',
    after: `  function onclose(c, e) {\n    move(c, closed)\n    c.reserved = null\n    if (c.reservation) { const { queue } = c.reservation; c.reservation = null; while (queue.length) queue.shift().reject(e) } // ${MARKER} (3)\n`,
  },
  {
    file: 'connection.js',
    before: '  async function closed(hadError) {\n    incoming = Buffer.alloc(0)\n',
    after: `  async function closed(hadError) {\n    errorResponse = null // ${MARKER} (4)\n    incoming = Buffer.alloc(0)\n`,
  },
];

const root = join(process.cwd(), 'node_modules', 'postgres');
const builds = ['src', 'cjs/src', 'cf/src'];

// package.json pins this version exactly: an upgrade must come here first (is the fix still needed?).
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (version !== '3.4.9') throw new Error(`postgres ${version} installed; scripts/patch-postgres-client.mjs fixes 3.4.9 only`);

let patched = 0;
for (const file of builds.flatMap((build) => ['index.js', 'connection.js'].map((name) => `${build}/${name}`))) {
  const path = join(root, file);
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    if (file.startsWith('cf/')) continue; // the workerd build is optional
    throw new Error(`postgres client not found at ${path}: run npm install from the project root`);
  }
  // Each edit once: a build patched by an earlier version of this script gets only the edits it lacks.
  const missing = EDITS.filter((edit) => file.endsWith(`/${edit.file}`) && !text.includes(edit.after));
  if (missing.length === 0) continue;
  for (const { before } of missing) {
    if (text.split(before).length !== 2) {
      throw new Error(
        `${path} is not the postgres 3.4.9 code this patch fixes (looked for "${before}" once): see scripts/patch-postgres-client.mjs`,
      );
    }
  }
  for (const { before, after } of missing) text = text.replace(before, after);
  writeFileSync(path, text);
  patched++;
}
console.log(patched > 0 ? `postgres client: reserve fix applied to ${patched} build(s)` : 'postgres client: reserve fix already applied');
