// Entry of the child process that runs the dashboard's Vite build (started by
// buildDashboard in ./build.ts), then the hosted pages' scripts (web/, one
// classic script per entry into <outDir>/hosted, served by src/hosted-pages/scripts.ts). Vite's build sets process.env.NODE_ENV to
// 'production' for the rest of the process it runs in, so it never runs inside
// `npm start` or the test run, whose own mode must stay what it was.
import { join } from 'node:path';
import { DASHBOARD_SOURCE_DIR, HOSTED_ENTRIES, WEB_SOURCE_DIR } from './build.js';

const outDir = process.argv[2];
if (!outDir) {
  process.stderr.write('usage: vite-build-main.ts <outDir>\n');
  process.exit(2);
}
const [{ build }, { default: react }] = await Promise.all([import('vite'), import('@vitejs/plugin-react')]);
await build({
  configFile: false,
  root: DASHBOARD_SOURCE_DIR,
  base: '/dashboard/',
  logLevel: 'warn',
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
});

// One build per hosted entry: each page loads one classic <script> (no modules, no shared chunks),
// under a fixed name so the pages' URLs stay what they are.
for (const [name, entry] of Object.entries(HOSTED_ENTRIES)) {
  await build({
    configFile: false,
    root: WEB_SOURCE_DIR,
    logLevel: 'warn',
    publicDir: false,
    build: {
      outDir: join(outDir, 'hosted'),
      emptyOutDir: false,
      sourcemap: false,
      target: 'es2020',
      // Readable as served: a payer's browser runs it, a reviewer may want to read it.
      minify: false,
      rolldownOptions: {
        input: join(WEB_SOURCE_DIR, entry),
        output: { format: 'iife', entryFileNames: name },
      },
    },
  });
}
