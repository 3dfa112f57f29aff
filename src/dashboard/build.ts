// Builds the web dashboard (dashboard/, Vite + React) into dashboard/dist with
// content-hashed asset names, and the hosted pages' scripts (web/: checkout,
// store, portal) into dashboard/dist/hosted under fixed names. `npm start` and the test global setup call it;
// the build is skipped when dashboard/dist was built from the same sources
// (a SHA-256 over every source file, recorded in dist/.source-hash), so
// repeated runs cost a directory walk. Vite is a dev dependency: it runs in a
// child process (vite-build-main.ts), never in the api process, which only
// serves the output, nor in the process that asked for the build.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const DASHBOARD_SOURCE_DIR = join(PROJECT_ROOT, 'dashboard');
export const DASHBOARD_DIST_DIR = join(DASHBOARD_SOURCE_DIR, 'dist');
/** The hosted pages' browser code (plain TypeScript, no React). */
export const WEB_SOURCE_DIR = join(PROJECT_ROOT, 'web');
/** Built file name -> entry under web/ (the names src/hosted-pages/scripts.ts serves). */
export const HOSTED_ENTRIES = {
  'checkout.js': 'checkout/main.ts',
  'store.js': 'storefront/main.ts',
  'portal.js': 'portal/main.ts',
} as const;
const HASH_FILE = '.source-hash';

/** Files outside dashboard/ and web/ the builds import (shared constants), plus the lock file (tool versions). */
const SHARED_SOURCES = [
  'src/api-keys/scopes.ts',
  'src/http/versions.ts',
  'src/events/types.ts',
  'src/chain/presets.ts',
  'src/chain/token-typed-data.ts',
  'src/chain/typed-data.ts',
  'src/chain/refusal-sentences.ts',
  'src/money/format.ts',
  'src/hosted-pages/checkout-island.ts',
  'package-lock.json',
];

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else files.push(path);
  }
  return files;
}

/** SHA-256 over the path and content of every dashboard and web/ source file. */
export function dashboardSourceHash(): string {
  const hash = createHash('sha256');
  const files = [
    ...sourceFiles(DASHBOARD_SOURCE_DIR),
    ...sourceFiles(WEB_SOURCE_DIR),
    ...SHARED_SOURCES.map((f) => join(PROJECT_ROOT, f)),
  ].sort();
  for (const file of files) {
    hash.update(relative(PROJECT_ROOT, file)).update('\0');
    if (existsSync(file)) hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const VITE_BUILD_ENTRY = join(PROJECT_ROOT, 'src', 'dashboard', 'vite-build-main.ts');

/** Runs Vite in a child process (see vite-build-main.ts for why not in this one). */
async function runViteBuild(outDir: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', VITE_BUILD_ENTRY, outDir], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`the dashboard build failed (exit code ${code}${signal ? `, signal ${signal}` : ''})`);
}

export type DashboardBuild = { outDir: string; built: boolean; ms: number };

/** Builds the dashboard unless dashboard/dist already holds a build of the current sources. */
export async function buildDashboard(options: { log?: (line: string) => void; force?: boolean } = {}): Promise<DashboardBuild> {
  const started = Date.now();
  const hash = dashboardSourceHash();
  const hashFile = join(DASHBOARD_DIST_DIR, HASH_FILE);
  if (!options.force && existsSync(hashFile) && readFileSync(hashFile, 'utf8').trim() === hash) {
    return { outDir: DASHBOARD_DIST_DIR, built: false, ms: Date.now() - started };
  }
  options.log?.('building the dashboard (dashboard/ -> dashboard/dist)');
  // Build into a fresh folder and swap it in, so a server reading dist never sees half a build.
  const scratch = join(PROJECT_ROOT, '.data', `dashboard-build-${process.pid}-${Date.now()}`);
  mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true });
  await runViteBuild(scratch);
  writeFileSync(join(scratch, HASH_FILE), hash + '\n');
  const old = join(PROJECT_ROOT, '.data', `dashboard-old-${process.pid}-${Date.now()}`);
  // Another process (a second test run, `npm start`) may swap in its build at the same moment: when it
  // built the same sources, its output is as good as ours.
  try {
    if (existsSync(DASHBOARD_DIST_DIR)) renameSync(DASHBOARD_DIST_DIR, old);
  } catch {
    // moved away by the other process already
  }
  try {
    renameSync(scratch, DASHBOARD_DIST_DIR);
  } catch (error) {
    const theirs = existsSync(hashFile) ? readFileSync(hashFile, 'utf8').trim() : undefined;
    if (theirs !== hash) throw error;
    rmSync(scratch, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  return { outDir: DASHBOARD_DIST_DIR, built: true, ms: Date.now() - started };
}
