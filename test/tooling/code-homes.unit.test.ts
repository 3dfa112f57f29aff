// One home per kind of code: product code (src/, workflows/, activities/) never imports
// local-stack tooling (tools/), tests (test/), benchmarks (bench/) or scripts (scripts/),
// so the app image can hold product code only (docs/architecture.md, "Layout").
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRODUCT = ['src', 'workflows', 'activities', 'web'];
const NOT_PRODUCT = ['tools', 'test', 'bench', 'scripts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** Every relative module specifier of a file: static and type imports, re-exports, dynamic imports. */
function relativeSpecifiers(source: string): string[] {
  const found = source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm);
  return [...found].map((m) => m[1]!);
}

/** The top-level folder a specifier of `file` lands in. */
function topFolder(file: string, specifier: string): string {
  return relative(ROOT, resolve(ROOT, dirname(file), specifier)).split(/[\\/]/)[0]!;
}

describe('product code imports only product code', () => {
  it('finds the imports it checks', () => {
    expect(relativeSpecifiers("import { a } from '../../tools/dev/x.js';\nimport type { B } from './b.js';")).toEqual([
      '../../tools/dev/x.js',
      './b.js',
    ]);
    expect(relativeSpecifiers('const m = await import(\'../test/support/y.js\');\nexport * from "./z.js";')).toEqual([
      '../test/support/y.js',
      './z.js',
    ]);
    expect(topFolder('src/chain/abi.ts', '../../tools/dev/seed.js')).toBe('tools');
  });

  it('no file under src/, workflows/ or activities/ imports from tools/, test/, bench/ or scripts/', () => {
    const files = PRODUCT.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    const offending = files.flatMap((file) =>
      relativeSpecifiers(readFileSync(join(ROOT, file), 'utf8'))
        .filter((specifier) => NOT_PRODUCT.includes(topFolder(file, specifier)))
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(offending).toEqual([]);
  });
});
