// Headless Chromium for browser tests: Debian's `chromium`, driven by
// playwright-core (which never downloads a browser of its own). A missing
// browser fails the test with what to install; it is never skipped.
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// The machine's network is closed: background networking would only produce refused connections.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium binary, or an error that says how to install it. */
export function chromiumPath(): string {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM_PATH}. The browser tests need it: install it with ` +
        '`apt-get install -y --no-install-recommends chromium` (Debian; .ci/run does this), ' +
        'or set CHROMIUM_PATH to an existing Chromium binary.',
    );
  }
  return CHROMIUM_PATH;
}

/** A fresh headless browser profile; close the context when done. */
export async function launchBrowser(): Promise<{ context: BrowserContext; userDataDir: string }> {
  const executablePath = chromiumPath();
  const userDataDir = await mkdtemp(join(tmpdir(), 'stablepay-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: CHROMIUM_ARGS });
  return { context, userDataDir };
}
