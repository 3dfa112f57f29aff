// docker-compose.yml and the Dockerfile, checked against the code that runs in
// them (pure parsing, no Docker): every variable src/config.ts requires under
// NODE_ENV=production is set for each app service, every search attribute the
// code sets is registered, the apps wait for Temporal and the contracts and
// restart on failure, and the production image installs no devDependency that
// the production entry points would need.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

type Env = Record<string, string | undefined>;
type DependsOn = string[] | Record<string, { condition?: string }>;
type Service = {
  image?: string;
  build?: string | { context?: string; target?: string };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: DependsOn;
  restart?: string;
};
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const services = Object.entries(compose.services);

const ENTRY_POINTS = ['src/server.ts', 'src/worker.ts', 'src/indexer.ts'];
const commandOf = (s: Service) => [s.entrypoint ?? [], s.command ?? []].flat().join(' ');
/** Services that run one of our processes. */
const appServices = services.filter(([, s]) => ENTRY_POINTS.some((entry) => commandOf(s).includes(entry)));
const commandsOfApps = () => appServices.map(([, s]) => commandOf(s));

/** Compose's interpolation: $$, $VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, ${VAR:+alt}, ${VAR+alt}. */
function interpolate(value: string, env: Env): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, name?: string, op?: string, arg = '', bare?: string) => {
      if (match === '$$') return '$';
      if (bare) return env[bare] ?? '';
      const value = env[name!];
      switch (op) {
        case undefined:
          return value ?? '';
        case ':-':
          return value ? value : arg;
        case '-':
          return value ?? arg;
        case ':+':
          return value ? arg : '';
        case '+':
          return value !== undefined ? arg : '';
        default: // ':?' and '?'
          if (op === ':?' ? !value : value === undefined) throw new Error(`compose refuses to start: ${name}: ${arg}`);
          return value!;
      }
    },
  );
}

function rawEnvironment(s: Service): Record<string, string> {
  const environment = s.environment ?? {};
  if (Array.isArray(environment)) {
    return Object.fromEntries(environment.map((line) => [line.split('=')[0]!, line.slice(line.indexOf('=') + 1)]));
  }
  return Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

/** Variables compose takes from the operator's environment (.env) and refuses to start without. */
const operatorVariables = [...read('docker-compose.yml').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\?|\$\{([A-Za-z_][A-Za-z0-9_]*):\?/g)].map(
  (m) => (m[1] ?? m[2])!,
);
/** What README tells the operator to put in .env: 32 random bytes, base64, per key. */
const operatorEnv: Env = Object.fromEntries([...new Set(operatorVariables)].map((name) => [name, randomBytes(32).toString('base64')]));

const environmentOf = (s: Service, env: Env = operatorEnv): Env =>
  Object.fromEntries(Object.entries(rawEnvironment(s)).map(([k, v]) => [k, interpolate(v, env)]));

/**
 * The variables the production config cannot start without, read from the code: start from
 * nothing but NODE_ENV and add, one at a time, the variable loadConfig's refusal names, taking its
 * value from the service's environment. A refusal naming a variable the service does not set fails.
 */
function requiredVariables(service: string, full: Env): string[] {
  const env: Env = { NODE_ENV: full.NODE_ENV };
  const required: string[] = [];
  for (;;) {
    try {
      loadConfig(env);
      return required;
    } catch (error) {
      const message = (error as Error).message;
      const name = Object.keys(full).find((k) => !(k in env) && new RegExp(`\\b${k}\\b`).test(message));
      if (!name) throw new Error(`the production config refuses service ${service}'s environment: ${message}`, { cause: error });
      env[name] = full[name];
      required.push(name);
    }
  }
}

function dependsOn(s: Service): Record<string, string | undefined> {
  const deps = s.depends_on ?? {};
  return Array.isArray(deps)
    ? Object.fromEntries(deps.map((d) => [d, 'service_started']))
    : Object.fromEntries(Object.entries(deps).map(([k, v]) => [k, v.condition]));
}

describe('docker-compose.yml: app services', () => {
  it('runs each process (api, worker, indexer) as a service', () => {
    for (const entry of ENTRY_POINTS)
      expect(
        appServices.some(([, s]) => commandOf(s).includes(entry)),
        entry,
      ).toBe(true);
  });

  it('each app service starts under NODE_ENV=production with the environment compose gives it', () => {
    for (const [name, s] of appServices) {
      const env = environmentOf(s);
      expect(env.NODE_ENV, name).toBe('production');
      expect(() => loadConfig(env), name).not.toThrow();
    }
  });

  it('sets every variable the production config requires, and removing any one of them is refused', () => {
    for (const [name, s] of appServices) {
      const env = environmentOf(s);
      const required = requiredVariables(name, env);
      expect(required.length, name).toBeGreaterThan(0);
      for (const variable of required) {
        const without = { ...env };
        delete without[variable];
        expect(() => loadConfig(without), `${name} without ${variable}`).toThrow();
      }
      // Keys are secrets: the operator supplies them; compose refuses to start without (never a committed value).
      for (const variable of required.filter((v) => /_KEY$/.test(v))) {
        expect(rawEnvironment(s)[variable], `${name}: ${variable}`).toMatch(new RegExp(`^\\$\\{${variable}:\\?`));
        expect(() => environmentOf(s, { ...operatorEnv, [variable]: undefined }), `${name} without ${variable} in .env`).toThrow(
          /compose refuses/,
        );
      }
    }
  });

  it('README says what to put in .env', () => {
    expect(operatorVariables.length).toBeGreaterThan(0);
    const readme = read('README.md');
    for (const variable of operatorVariables) expect(readme, variable).toContain(variable);
  });

  it('waits for Postgres, for Temporal (search attributes registered) and for the contracts, and restarts on failure', () => {
    const setup = services.filter(([, s]) => commandOf(s).includes('search-attribute create'));
    expect(setup).toHaveLength(1);
    const [setupName] = setup[0]!;
    for (const [name, s] of appServices) {
      const deps = dependsOn(s);
      expect(deps.postgres, name).toBe('service_healthy');
      expect(deps[setupName], name).toBe('service_completed_successfully');
      expect(['on-failure', 'always', 'unless-stopped'], name).toContain(s.restart?.split(':')[0]);

      // Test mode's chain: either its contract addresses are configured, or the app waits for the
      // deployment of the dev contracts to that same chain.
      const env = environmentOf(s);
      const rpcUrl = env.CHAIN_TEST_RPC_URL || env.CHAIN_RPC_URL;
      if (!rpcUrl) continue;
      const configured = ['TOKEN', 'SUBSCRIPTION_MANAGER', 'ESCROW'].every((c) => env[`CHAIN_TEST_${c}_ADDRESS`]);
      const deployers = Object.entries(deps)
        .filter(([, condition]) => condition === 'service_completed_successfully')
        .map(([dep]) => compose.services[dep]!)
        .filter((d) => commandOf(d).includes('scripts/deploy-dev-contracts.ts') && environmentOf(d).CHAIN_TEST_RPC_URL === rpcUrl);
      expect(configured || deployers.length === 1, `${name}: contracts at ${rpcUrl}`).toBe(true);
      const host = new URL(rpcUrl).hostname;
      if (compose.services[host])
        expect(
          Object.keys(deps).some((d) => d === host || deployers.length > 0),
          name,
        ).toBe(true);
    }
    expect(existsSync(join(ROOT, 'scripts/deploy-dev-contracts.ts'))).toBe(true);
  });
});

// ------------------------------------------------------------------ search attributes

const SOURCE_DIRS = ['src', 'workflows', 'activities'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `KEYWORD_LIST` -> `KeywordList`: the CLI's spelling of a SearchAttributeType. */
const cliType = (enumName: string) => enumName.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** Search attributes the code defines or sets: defineSearchAttributeKey, upsertSearchAttributes, searchAttributes. */
function searchAttributesInCode(): Map<string, string | undefined> {
  const found = new Map<string, string | undefined>();
  const note = (name: string, type?: string) => found.set(name, type ?? found.get(name));
  const keysOf = (node: ts.Node | undefined) => {
    if (node && ts.isObjectLiteralExpression(node)) {
      for (const p of node.properties) if (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) note(p.name.text);
    }
  };
  for (const file of SOURCE_DIRS.flatMap(sourceFiles)) {
    const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression.getText(source);
        const [first, second] = node.arguments;
        if (/\bdefineSearchAttributeKey$/.test(callee) && first && ts.isStringLiteral(first)) {
          note(first.text, second && ts.isPropertyAccessExpression(second) ? cliType(second.name.text) : undefined);
        }
        if (/\bupsertSearchAttributes$/.test(callee)) keysOf(first);
      }
      if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'searchAttributes') keysOf(node.initializer);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('Temporal search attributes', () => {
  const inCode = searchAttributesInCode();
  const setupCommand = services.map(([, s]) => commandOf(s)).find((c) => c.includes('search-attribute create')) ?? '';
  const inCompose = new Map(
    [...setupCommand.matchAll(/search-attribute create\b[^\n]*?--name\s+(\w+)\s+--type\s+(\w+)/g)].map((m) => [m[1]!, m[2]!]),
  );
  const inDevServer = new Map(
    [...read('tools/dev/temporal.ts').matchAll(/'--search-attribute',\s*'(\w+)=(\w+)'/g)].map((m) => [m[1]!, m[2]!]),
  );

  it('the code sets some (the scan finds them)', () => {
    expect(inCode.size).toBeGreaterThan(0);
    for (const [name, type] of inCode)
      expect(type, `${name} is set but never defined with defineSearchAttributeKey (its type)`).toBeDefined();
  });

  it('compose registers every one the code sets, with its type', () => {
    for (const [name, type] of inCode) expect(inCompose.get(name), name).toBe(type);
  });

  it('the dev server registers every one the code sets, with its type', () => {
    for (const [name, type] of inCode) expect(inDevServer.get(name), name).toBe(type);
  });
});

// ------------------------------------------------------------------ the image

/** The Dockerfile's stages: name and the instructions in it. */
function dockerStages(): { name: string; lines: string[] }[] {
  const stages: { name: string; lines: string[] }[] = [];
  const text = read('Dockerfile').replace(/\\\n/g, ' ');
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.push({ name: from[1] ?? String(stages.length), lines: [] });
    else stages.at(-1)?.lines.push(line);
  }
  return stages;
}

const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

/** Packages the given entry files load at run time, following relative imports (type-only imports are erased). */
function runtimePackages(entries: string[]): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
    const specifiers: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier))
        specifiers.push(node.moduleSpecifier.text);
      if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
        specifiers.push(node.moduleSpecifier.text);
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        specifiers.push(node.arguments[0].text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) {
        const target = relative(ROOT, resolve(ROOT, dirname(file), specifier.replace(/\.js$/, '.ts')));
        if (existsSync(join(ROOT, target))) queue.push(target);
        else if (existsSync(join(ROOT, target, 'index.ts'))) queue.push(join(target, 'index.ts'));
        continue;
      }
      if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) continue;
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
      if (!packages.has(name)) packages.set(name, file);
    }
  }
  return packages;
}

describe('Dockerfile', () => {
  const stages = dockerStages();
  const final = stages.at(-1)!;

  it('the app services run the final stage, which installs with npm ci --omit=dev', () => {
    for (const [name, s] of appServices) {
      const target = typeof s.build === 'object' ? s.build.target : undefined;
      expect(target === undefined || target === final.name, `${name} builds ${target}`).toBe(true);
    }
    const installs = final.lines.filter((l) => /^RUN\b.*\bnpm\s+(ci|install|i)\b/.test(l));
    expect(installs.length).toBeGreaterThan(0);
    for (const line of installs) expect(line).toMatch(/\bnpm\s+ci\b.*--omit=dev/);
    for (const stage of stages) for (const line of stage.lines) expect(line).not.toMatch(/\bnpm\s+(install|i)\b/);
  });

  it('what the production processes load is in dependencies, never only in devDependencies', () => {
    // The worker also bundles workflows/ and runs activities/.
    const used = runtimePackages([...ENTRY_POINTS, 'workflows/index.ts', 'activities/index.ts']);
    expect(used.size).toBeGreaterThan(0);
    for (const [name, from] of used) expect(pkg.dependencies[name], `${name} (imported by ${from})`).toBeDefined();
  });

  it('the app stage copies product code only (src/, workflows/, activities/, the built dashboard)', () => {
    const copies = final.lines.filter((l) => /^COPY\b/i.test(l)).map((l) => l.split(/\s+/).filter((w) => !w.startsWith('--')));
    const sources = copies.flatMap((words) => words.slice(1, -1));
    expect(sources).toEqual(expect.arrayContaining(['src', 'workflows', 'activities']));
    // `COPY . .` would bring tools/, test/, bench/ and contracts/ into the image.
    for (const source of sources) expect(['tsconfig.json', 'src', 'workflows', 'activities', '/app/dashboard/dist']).toContain(source);
  });

  it('dependencies holds nothing the production processes do not load (dev tooling is a devDependency)', () => {
    const used = runtimePackages([...ENTRY_POINTS, 'workflows/index.ts', 'activities/index.ts']);
    // Loaded by name, not imported: the commands run `node --import tsx`.
    const byName = new Set(commandsOfApps().flatMap((c) => [...c.matchAll(/--import\s+(\S+)/g)].map((m) => m[1]!)));
    const unused = Object.keys(pkg.dependencies).filter((name) => !used.has(name) && !byName.has(name));
    expect(unused).toEqual([]);
  });
});
