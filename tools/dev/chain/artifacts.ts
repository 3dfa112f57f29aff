/**
 * Compiles `contracts/*.sol` with solc-js (npm, no downloaded compiler) and caches the ABI + bytecode
 * under `build/contracts/<sourceHash>/<Name>.json`. The hash covers every contract source, the solc
 * version, the OpenZeppelin version and the compiler settings, so a cache hit is always exact and a
 * second call costs a few file reads.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';

export const CONTRACT_NAMES = ['TestUSDC', 'SubscriptionManager', 'SubscriptionManagerV2', 'AgenticCommerceEscrow'] as const;
export type ContractName = (typeof CONTRACT_NAMES)[number];

export interface ContractArtifact {
  contractName: string;
  /** Source unit path as given to solc, e.g. `contracts/TestUSDC.sol`. */
  sourceName: string;
  abi: Abi;
  /** Creation bytecode (0x-prefixed). */
  bytecode: Hex;
  /** Runtime bytecode (0x-prefixed). */
  deployedBytecode: Hex;
  solcVersion: string;
  sourceHash: string;
}

export interface ArtifactSet {
  sourceHash: string;
  solcVersion: string;
  /** Absolute directory holding this build's JSON files. */
  dir: string;
  /** true when served from the cache without compiling. */
  cached: boolean;
  contracts: Record<ContractName, ContractArtifact> & Record<string, ContractArtifact>;
}

export interface LoadArtifactsOptions {
  /** Project root (holds `contracts/` and `node_modules/`). Default: found by walking up from this file. */
  rootDir?: string;
  /** Where builds go. Default: `<rootDir>/build/contracts`. */
  buildDir?: string;
  /** Recompile even when the cache exists. */
  force?: boolean;
  log?: (message: string) => void;
}

/** Compiler settings; part of the cache key. Optimizer on (200 runs), no viaIR, EVM cancun for wide chain support. */
export const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  viaIR: false,
  metadata: { bytecodeHash: 'ipfs' },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
} as const;

const MANIFEST = 'manifest.json';

interface SolcModule {
  version(): string;
  compile(input: string, callbacks?: { import: (path: string) => { contents: string } | { error: string } }): string;
}

interface SolcOutput {
  errors?: Array<{ severity: 'error' | 'warning' | 'info'; formattedMessage?: string; message: string }>;
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
}

interface Manifest {
  sourceHash: string;
  solcVersion: string;
  contracts: string[];
}

let solcCache: SolcModule | undefined;
const memo = new Map<string, ArtifactSet>();

/** Walks up from `start` to the first directory with both `package.json` and `contracts/`. */
export function findProjectRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'contracts'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No project root (package.json + contracts/) above ${start}`);
    dir = parent;
  }
}

function loadSolc(rootDir: string): SolcModule {
  if (!solcCache) {
    const require = createRequire(join(rootDir, 'package.json'));
    solcCache = require('solc') as SolcModule;
  }
  return solcCache;
}

function packageVersion(rootDir: string, name: string): string {
  const require = createRequire(join(rootDir, 'package.json'));
  const pkg = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string };
  return pkg.version;
}

/** All `.sol` files under `contracts/`, keyed by POSIX path relative to the root, sorted. */
export function readContractSources(rootDir: string = findProjectRoot()): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.sol')) out[relative(rootDir, full).split(sep).join('/')] = readFileSync(full, 'utf8');
    }
  };
  walk(join(rootDir, 'contracts'));
  return out;
}

/** Cache key: sources, solc version, OpenZeppelin version and compiler settings. */
export function computeSourceHash(rootDir: string = findProjectRoot()): { sourceHash: string; solcVersion: string } {
  const solcVersion = packageVersion(rootDir, 'solc');
  const hash = createHash('sha256');
  hash.update(`solc@${solcVersion}\n`);
  hash.update(`@openzeppelin/contracts@${packageVersion(rootDir, '@openzeppelin/contracts')}\n`);
  hash.update(JSON.stringify(COMPILER_SETTINGS));
  for (const [path, content] of Object.entries(readContractSources(rootDir))) {
    hash.update(`\n--${path}--\n`);
    hash.update(content);
  }
  return { sourceHash: hash.digest('hex').slice(0, 16), solcVersion };
}

/** Compiles every contract source. Throws with solc's formatted messages on any error. */
export function compileContracts(
  rootDir: string = findProjectRoot(),
  log: (message: string) => void = () => {},
): Record<string, Omit<ContractArtifact, 'sourceHash'>> {
  const solc = loadSolc(rootDir);
  const sources = readContractSources(rootDir);
  const require = createRequire(join(rootDir, 'package.json'));
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([path, content]) => [path, { content }])),
    settings: COMPILER_SETTINGS,
  };
  const findImport = (path: string): { contents: string } | { error: string } => {
    try {
      if (path.startsWith('@')) return { contents: readFileSync(require.resolve(path), 'utf8') };
      const local = join(rootDir, path);
      if (existsSync(local)) return { contents: readFileSync(local, 'utf8') };
      return { error: `File not found: ${path}` };
    } catch (err) {
      return { error: `Cannot resolve ${path}: ${(err as Error).message}` };
    }
  };
  const started = Date.now();
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage ?? e.message).join('\n')}`);
  }
  for (const w of (output.errors ?? []).filter((e) => e.severity === 'warning')) {
    log(`solc warning: ${w.formattedMessage ?? w.message}`);
  }
  const solcVersion = solc.version();
  const result: Record<string, Omit<ContractArtifact, 'sourceHash'>> = {};
  for (const sourceName of Object.keys(sources)) {
    for (const [contractName, c] of Object.entries(output.contracts?.[sourceName] ?? {})) {
      if (!c.evm.bytecode.object) continue; // interfaces / abstract contracts
      result[contractName] = {
        contractName,
        sourceName,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        solcVersion,
      };
    }
  }
  log(`compiled ${Object.keys(result).length} contracts with solc ${solcVersion} in ${Date.now() - started} ms`);
  return result;
}

function writeAtomic(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, file);
}

function readBuild(dir: string, sourceHash: string, solcVersion: string): ArtifactSet | undefined {
  const manifestPath = join(dir, MANIFEST);
  if (!existsSync(manifestPath)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const contracts: Record<string, ContractArtifact> = {};
  for (const name of manifest.contracts) {
    contracts[name] = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as ContractArtifact;
  }
  for (const name of CONTRACT_NAMES) if (!contracts[name]) return undefined;
  return {
    sourceHash,
    solcVersion: manifest.solcVersion ?? solcVersion,
    dir,
    cached: true,
    contracts: contracts as ArtifactSet['contracts'],
  };
}

/**
 * Returns the compiled contracts, compiling only when `build/contracts/<sourceHash>/` is missing.
 * Safe to call concurrently from several processes: files are written atomically and the manifest,
 * written last, marks a build complete.
 */
export async function loadArtifacts(options: LoadArtifactsOptions = {}): Promise<ArtifactSet> {
  const rootDir = options.rootDir ?? findProjectRoot();
  const log = options.log ?? (() => {});
  const { sourceHash, solcVersion } = computeSourceHash(rootDir);
  const dir = join(options.buildDir ?? join(rootDir, 'build', 'contracts'), sourceHash);

  if (!options.force) {
    const hit = memo.get(dir) ?? readBuild(dir, sourceHash, solcVersion);
    if (hit) {
      const cached = { ...hit, cached: true };
      memo.set(dir, cached);
      return cached;
    }
  }

  const compiled = compileContracts(rootDir, log);
  mkdirSync(dir, { recursive: true });
  const contracts: Record<string, ContractArtifact> = {};
  for (const [name, artifact] of Object.entries(compiled)) {
    contracts[name] = { ...artifact, sourceHash };
    writeAtomic(join(dir, `${name}.json`), `${JSON.stringify(contracts[name], null, 2)}\n`);
  }
  const manifest: Manifest = {
    sourceHash,
    solcVersion: Object.values(compiled)[0]?.solcVersion ?? solcVersion,
    contracts: Object.keys(contracts).sort(),
  };
  writeAtomic(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const name of CONTRACT_NAMES) {
    if (!contracts[name]) throw new Error(`Contract ${name} missing from the build`);
  }
  const set: ArtifactSet = {
    sourceHash,
    solcVersion: manifest.solcVersion,
    dir,
    cached: false,
    contracts: contracts as ArtifactSet['contracts'],
  };
  memo.set(dir, set);
  log(`wrote ${Object.keys(contracts).length} artifacts to ${dir}`);
  return set;
}
