/**
 * Compiles contracts/*.sol (cached in build/contracts/<sourceHash>/) and regenerates src/chain/generated/
 * (our contracts' ABIs and init-code hash, Circle's FiatTokenV2_2 ABI): `npm run contracts:generate`.
 *   npm run contracts:generate              build (instant on a cache hit) and write the generated files
 *   npm run contracts:generate -- --force   recompile even on a cache hit
 *   npm run contracts:generate -- --check   exit 1 when a generated file is stale
 */
import { findProjectRoot, loadArtifacts } from '../tools/dev/chain/artifacts.js';
import {
  GENERATED_DIR,
  readGeneratedSources,
  renderGeneratedSources,
  writeGeneratedSources,
} from '../tools/dev/chain/generated-sources.js';

const args = new Set(process.argv.slice(2));
const rootDir = findProjectRoot();
const set = await loadArtifacts({ rootDir, force: args.has('--force'), log: (m) => console.log(m) });
console.log(`${set.cached ? 'cache hit' : 'built'}: ${set.dir} (solc ${set.solcVersion})`);

if (args.has('--check')) {
  const current = readGeneratedSources(rootDir);
  const next = await renderGeneratedSources(rootDir);
  if (JSON.stringify(current) !== JSON.stringify(next)) {
    console.error(`${GENERATED_DIR} is out of date: run \`npm run contracts:generate\``);
    process.exit(1);
  }
  console.log(`${GENERATED_DIR} is up to date`);
} else {
  const written = await writeGeneratedSources(rootDir);
  console.log(written.length > 0 ? `wrote ${written.map((name) => `${GENERATED_DIR}/${name}`).join(', ')}` : `${GENERATED_DIR} unchanged`);
}
