/**
 * Compiles contracts/*.sol (cached in build/contracts/<sourceHash>/) and regenerates src/chain/abi.ts.
 *   npx tsx scripts/build-contracts.ts           build (instant on a cache hit) and write abi.ts
 *   npx tsx scripts/build-contracts.ts --force   recompile even on a cache hit
 *   npx tsx scripts/build-contracts.ts --check   exit 1 when src/chain/abi.ts is stale (CI)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findProjectRoot, loadArtifacts, renderAbiModule } from '../tools/dev/chain/artifacts.js';

const args = new Set(process.argv.slice(2));
const rootDir = findProjectRoot();
const set = await loadArtifacts({ rootDir, force: args.has('--force'), log: (m) => console.log(m) });
console.log(`${set.cached ? 'cache hit' : 'built'}: ${set.dir} (solc ${set.solcVersion})`);

const abiPath = join(rootDir, 'src', 'chain', 'abi.ts');
const next = renderAbiModule(set);
const current = existsSync(abiPath) ? readFileSync(abiPath, 'utf8') : '';
if (args.has('--check')) {
  if (current !== next) {
    console.error('src/chain/abi.ts is out of date: run `npx tsx scripts/build-contracts.ts`');
    process.exit(1);
  }
  console.log('src/chain/abi.ts is up to date');
} else if (current !== next) {
  writeFileSync(abiPath, next);
  console.log(`wrote ${abiPath}`);
} else {
  console.log('src/chain/abi.ts unchanged');
}
