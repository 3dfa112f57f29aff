// The project's real vitest config (global setup, pool, reporters), pointed at
// the deliberately failing fixtures instead of the suite.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import projectConfig from '../../vitest.config.js';

export default defineConfig({
  ...projectConfig,
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: { ...projectConfig.test, include: ['test/exit-code/fixtures/*.fixture.ts'] },
});
