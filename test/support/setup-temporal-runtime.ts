// Vitest setup file: every test process routes Temporal's runtime logs to a file.
import { installTestRuntime } from './temporal-logging.js';

installTestRuntime();
