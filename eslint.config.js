// ESLint (flat config): typescript-eslint's type-aware rules over the whole repository, with the promise
// rules and, for workflows/, the import rules that keep workflow code deterministic. Formatting is Prettier's.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Modules of src/ that workflows may import as values: they import nothing with a side effect (only each
// other and @temporalio/common), so they are safe in the workflow sandbox. Anything else from src/ or
// activities/ is allowed as a type import only. The same files are held to the workflow rules below.
const PURE_SRC_MODULES = [
  'src/temporal/failures.ts',
  'src/temporal/search-attributes.ts',
  'src/agents/recovery.ts',
  'src/subscriptions/periods.ts',
  'src/webhooks/runs.ts',
];
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Every Node built-in, bare (`fs`) and prefixed (`node:fs`), as temporalio/samples-typescript restricts them.
const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_')).flatMap((name) => [name, `node:${name}`]);

// pureModules: the src/ modules this file may import as values; null: no relative value import at all.
const workflowImportRule = (pureModules) => [
  'error',
  {
    paths: [
      ...nodeBuiltins.map((name) => ({
        name,
        message: 'Workflow code runs in a deterministic sandbox: no Node built-ins (move the work to an activity).',
      })),
      ...['@temporalio/activity', '@temporalio/client', '@temporalio/worker'].map((name) => ({
        name,
        message: 'Workflow code imports only @temporalio/workflow (and @temporalio/common).',
      })),
    ],
    patterns: [
      { group: ['node:*'], message: 'Workflow code runs in a deterministic sandbox: no Node built-ins.' },
      pureModules
        ? {
            // src/ and activities/ are type imports only, except the pure modules.
            regex: `(^|/)(src|activities)/(?!(${pureModules.map((path) => escapeRegex(path.replace(/^src\//, '').replace(/\.ts$/, '.js'))).join('|')})$)`,
            allowTypeImports: true,
            message:
              'Workflow code may import src/ and activities/ as types only; a value import must come from a pure module (PURE_SRC_MODULES in eslint.config.js).',
          }
        : {
            regex: '^\\.',
            allowTypeImports: true,
            message: 'A module workflows import stays pure: it imports other modules as types only.',
          },
    ],
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      '.tools/**',
      'coverage/**',
      'contracts/**',
      // Recorded workflow histories and other fixtures are data, not code.
      'test/fixtures/**',
      // Written by `npm run contracts:generate`, checked byte for byte against a fresh generation.
      'src/chain/generated/**',
      // Written by `npm run api:generate` from the OpenAPI document, checked byte for byte against a fresh generation.
      'dashboard/src/api/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        // One TypeScript program per tsconfig (root and dashboard), found per file.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // The promise rules need type information: a forgotten await or a promise passed where a void
      // callback is expected loses its rejection.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // `_`-prefixed names are deliberately unused (a parameter kept for a signature, a value destructured away).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Refusing control characters in text (src/http/schemas.ts, list filters, storable text) is the point of those regexes.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests read loosely typed JSON bodies and reach into library internals; `any` there is deliberate.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['src/**', 'activities/**', 'scripts/**', 'bench/**', 'test/**', 'vitest.config.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['dashboard/src/**'],
    languageOptions: { globals: globals.browser },
    rules: {
      // React discards an event handler's return value; an async handler's rejection reaches the window's
      // unhandledrejection as a throwing one reaches its error event. Promises passed as arguments stay checked.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': workflowImportRule(PURE_SRC_MODULES) },
  },
  {
    // The pure modules workflows import keep to the same rules, so they stay pure.
    files: PURE_SRC_MODULES,
    rules: { '@typescript-eslint/no-restricted-imports': workflowImportRule(null) },
  },
);
