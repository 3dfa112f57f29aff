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
//
// Plain JavaScript with no imports: it runs during the install. It edits the library's ESM, CJS
// and workerd builds, is idempotent, and fails the install if the library's code is not the code
// it was written against (a new version: check whether it still needs the fix).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MARKER = 'stablepay patch: reserve always settles';

const EDITS = [
  {
    before: 'const query = { reserve: resolve, reject }',
    after: `const query = { reserve: resolve, reject: (error) => (queries.remove(query), reject(error)) } // ${MARKER}`,
  },
  {
    before: 'queries.length && connect(c, queries.shift())',
    after: `queries.length && connect(c, (x => (x.reserve && queries.push(x), x))(queries.shift())) // ${MARKER}`,
  },
];

const root = join(process.cwd(), 'node_modules', 'postgres');
const files = ['src/index.js', 'cjs/src/index.js', 'cf/src/index.js'];

// package.json pins this version exactly: an upgrade must come here first (is the fix still needed?).
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (version !== '3.4.9') throw new Error(`postgres ${version} installed; scripts/patch-postgres-client.mjs fixes 3.4.9 only`);

let patched = 0;
for (const file of files) {
  const path = join(root, file);
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    if (file === 'cf/src/index.js') continue; // the workerd build is optional
    throw new Error(`postgres client not found at ${path}: run npm install from the project root`);
  }
  if (text.includes(MARKER)) continue;
  for (const { before } of EDITS) {
    if (text.split(before).length !== 2) {
      throw new Error(
        `${path} is not the postgres 3.4.9 code this patch fixes (looked for "${before}" once): see scripts/patch-postgres-client.mjs`,
      );
    }
  }
  for (const { before, after } of EDITS) text = text.replace(before, after);
  writeFileSync(path, text);
  patched++;
}
console.log(patched > 0 ? `postgres client: reserve fix applied to ${patched} build(s)` : 'postgres client: reserve fix already applied');
