import { readFileSync } from 'node:fs';
import { listeningUrl, type RunningCommand } from '@agentstep/cli/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumMissing,
  launchChromium,
  newBrowserContext,
  PAGE_WAIT_MS,
  START_WAIT_MS,
} from '../support/chromium.js';
import { batch } from '../support/harness.js';
import { serveForPage } from '../support/serve-for-page.js';
import { readmeChatPage } from './use-chat-page/readme-chat-page.js';
import { type ChatPageServer, serveChatPage } from './use-chat-page/serve-chat-page.js';

/** Where the README's snippet sends its requests, as it says. */
const README_API = 'http://127.0.0.1:3000';
/** How long `expect.poll` waits for the page or the API to show something. */
const UNTIL = { timeout: PAGE_WAIT_MS };

/**
 * Every turn (with `--approve echo`): a mixed batch, an `echo` that waits for approval beside a
 * `sleep` of 1 s that needs none, then an answer.
 */
const MIXED_TURN = [
  batch(['echo', { text: 'approved' }], ['sleep', { ms: 1_000, value: 'slept' }]),
  'Both done.<end>',
];

/** The messages the page shows: each one's role and its parts' lines. */
async function shownMessages(page: Page): Promise<Array<{ role: string | null; parts: string[] }>> {
  const messages = await page.getByTestId('message').all();
  return Promise.all(
    messages.map(async (message) => ({
      role: await message.getAttribute('data-role'),
      parts: await message.getByTestId('part').allTextContents(),
    })),
  );
}

/**
 * A browser context in which the README's API address reaches `api`: the snippet runs unchanged
 * while the API listens on a free port (the page is still another origin, so CORS still applies).
 */
async function contextReaching(browser: Browser, api: string): Promise<BrowserContext> {
  const context = await newBrowserContext(browser);
  await context.route(`${README_API}/**`, async (route) => {
    const url = route.request().url().replace(README_API, api);
    await route.fulfill({ response: await route.fetch({ url }) });
  });
  return context;
}

describe.skipIf(chromiumMissing !== undefined)(
  `the README's \`useChat\` snippet, verbatim, in Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let pages: ChatPageServer;
    let browser: Browser;
    let mixed: RunningCommand;
    let api: string;
    beforeAll(async () => {
      const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
      [pages, browser] = await Promise.all([serveChatPage(readmeChatPage(readme)), launchChromium()]);
      mixed = serveForPage(MIXED_TURN, pages.origin, ['--approve', 'echo']);
      api = await mixed.waitFor(listeningUrl);
    }, START_WAIT_MS);
    afterAll(async () => {
      await browser?.close();
      mixed?.stop();
      expect(await mixed?.exited).toBe(0);
      await pages?.close();
    });

    it('a batch mixing a call that waits for approval with one that does not: Approve, and the turn finishes', async () => {
      const page = await (await contextReaching(browser, api)).newPage();
      page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
      await page.goto(pages.origin);
      await page.getByTestId('status').filter({ hasText: 'ready' }).waitFor();
      await page.getByTestId('input').fill('Go');
      await page.getByTestId('send').click();
      // The call that needed no approval shows its output while the other waits.
      await expect
        .poll(() => shownMessages(page), UNTIL)
        .toEqual([
          { role: 'user', parts: ['text: Go'] },
          {
            role: 'assistant',
            parts: [
              'tool echo approval-requested: {"text":"approved"}Approve',
              'tool sleep output-available: "slept"',
            ],
          },
        ]);
      await page.getByTestId('status').filter({ hasText: 'ready' }).waitFor();
      await page.getByTestId('approve').click();
      await expect
        .poll(() => shownMessages(page), UNTIL)
        .toEqual([
          { role: 'user', parts: ['text: Go'] },
          {
            role: 'assistant',
            parts: [
              'tool echo output-available: "approved"',
              'tool sleep output-available: "slept"',
              'text: Both done.',
            ],
          },
        ]);
      await page.getByTestId('status').filter({ hasText: 'ready' }).waitFor();
      const session = await fetch(`${api}/sessions/my-chat`, { headers: { authorization: 'Bearer alice' } });
      expect(await session.json()).toMatchObject({ lastTurn: { status: 'done' } });
    });
  },
);
