// `npm run dashboard:build`: builds the web dashboard into dashboard/dist
// (also run by `npm start` and the test setup; the Dockerfile's image runs it
// at build time). `--force` rebuilds even when the sources are unchanged.
import { buildDashboard } from '../src/dashboard/build.js';

const result = await buildDashboard({ force: process.argv.includes('--force'), log: (line) => console.log(`[dashboard] ${line}`) });
console.log(`[dashboard] ${result.built ? `built in ${result.ms} ms` : 'up to date'}: ${result.outDir}`);
