import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';

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

/** How long a browser test file may take to start its servers and Chromium: generous, for a loaded machine. */
export const START_WAIT_MS = 300_000;

/**
 * How long a page waits for a condition (an element, a navigation, a poll) before it fails: a
 * bound generous enough for a loaded machine, never a duration a test asserts.
 */
export const PAGE_WAIT_MS = 60_000;

/** A new browser context whose pages wait up to {@link PAGE_WAIT_MS} for each condition. */
export async function newBrowserContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(PAGE_WAIT_MS);
  return context;
}

/**
 * A new browser context (as {@link newBrowserContext}) whose pages start signed in to the console
 * as `tenant` (`serve --auth dev`: the bearer token names the tenant), its credentials kept as the
 * console keeps them.
 */
export async function signedInContext(
  browser: Browser,
  tenant: string,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await newBrowserContext(browser, options);
  const credentials = JSON.stringify({ token: tenant, who: tenant });
  await context.addInitScript(
    `localStorage.setItem('agentstep.console.credentials', ${JSON.stringify(credentials)})`,
  );
  return context;
}
