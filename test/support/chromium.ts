import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** The Chromium the browser tests drive: `CHROMIUM_PATH`, or the Debian `chromium` package's. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or `undefined` when they can. */
export const chromiumMissing = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`;

/** Flags for a headless Chromium that runs as root and offline, asking no service anything (TOOLCHAIN.md). */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts the headless Chromium at {@link chromiumPath}. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: FLAGS });
}
