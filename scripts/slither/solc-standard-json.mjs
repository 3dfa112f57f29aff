#!/usr/bin/env node
// solc-js (the project's `solc` npm package) as the `solc` executable slither's crytic-compile
// runs: `--version` prints the version line it parses, and `--standard-json` reads the standard
// JSON input on stdin and writes the output on stdout. Sources given as `urls` (crytic-compile's
// form) and imports are read from the working directory, so no native compiler is downloaded.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const require = createRequire(join(process.cwd(), 'package.json'));
const solc = require('solc');

const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
  process.exit(0);
}
if (!args.includes('--standard-json')) {
  process.stderr.write('solc-standard-json: only --version and --standard-json are supported\n');
  process.exit(2);
}

const readSource = (path) => {
  const file = resolve(process.cwd(), path);
  return existsSync(file) ? { contents: readFileSync(file, 'utf8') } : { error: `File not found: ${path}` };
};

const input = JSON.parse(readFileSync(0, 'utf8'));
for (const [name, source] of Object.entries(input.sources ?? {})) {
  if (source.content === undefined && source.urls) {
    const found = readSource(source.urls[0] ?? name);
    if ('error' in found) throw new Error(found.error);
    input.sources[name] = { content: found.contents };
  }
}
process.stdout.write(solc.compile(JSON.stringify(input), { import: readSource }));
