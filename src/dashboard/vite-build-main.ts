// Entry of the child process that runs the dashboard's Vite build (started by
// buildDashboard in ./build.ts). Vite's build sets process.env.NODE_ENV to
// 'production' for the rest of the process it runs in, so it never runs inside
// `npm start` or the test run, whose own mode must stay what it was.
import { DASHBOARD_SOURCE_DIR } from './build.js';

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
