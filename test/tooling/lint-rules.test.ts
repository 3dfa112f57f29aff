// The lint rules CI relies on (eslint.config.js) still fire: a Node built-in or a side-effecting src/ module
// imported by a workflow, and a floating promise. Fixtures are linted in memory under real file names.
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

let eslint: ESLint;

/** `line:rule` of each finding, once per line and rule (one import can match two restrictions). */
async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return [...new Set(result!.messages.map((m) => `${m.line}:${m.ruleId ?? m.message}`))];
}

describe('eslint.config.js', () => {
  beforeAll(() => {
    eslint = new ESLint({ cwd: process.cwd() });
  });

  // Type-aware linting loads the TypeScript program once (tens of seconds on a loaded machine).
  it('keeps workflow files free of Node built-ins and side-effecting src/ modules', { timeout: 180_000 }, async () => {
    const workflow = 'workflows/refund.ts';
    const builtins = await ruleIds(
      workflow,
      "import { randomUUID } from 'node:crypto';\nimport { readFileSync } from 'fs';\nexport const id = (): string => randomUUID() + String(readFileSync);\n",
    );
    expect(builtins).toEqual(['1:@typescript-eslint/no-restricted-imports', '2:@typescript-eslint/no-restricted-imports']);

    const sideEffects = await ruleIds(workflow, "import { newId } from '../src/ids.js';\nexport const id = (): string => newId('re');\n");
    expect(sideEffects).toEqual(['1:@typescript-eslint/no-restricted-imports']);

    const allowed = await ruleIds(
      workflow,
      "import type { Activities } from '../activities/index.js';\nimport { permanentFailureType } from '../src/temporal/failures.js';\n" +
        'export type A = Activities;\nexport const t = permanentFailureType;\n',
    );
    expect(allowed).toEqual([]);
  });

  it('refuses a floating promise', { timeout: 180_000 }, async () => {
    const code = 'async function send(): Promise<void> {}\nexport function go(): void {\n  send();\n}\n';
    expect(await ruleIds('src/ids.ts', code)).toEqual(['3:@typescript-eslint/no-floating-promises']);
    expect(await ruleIds('src/ids.ts', code.replace('  send();', '  void send();'))).toEqual([]);
  });
});
