import { mkdirSync } from 'node:fs';
import { AgentStepClient } from '@agentstep/client';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumMissing,
  launchChromium,
  PAGE_WAIT_MS,
  START_WAIT_MS,
  signedInContext,
} from '../support/chromium.js';
import { batch } from '../support/harness.js';
import { IN_MEMORY_STORE, type Served, serveScript } from '../support/serve-client.js';

/** One unbroken word far wider than any screen: it must wrap inside its card. */
const LONG_WORD = 'w'.repeat(500);

/** An answer in Markdown, with raw HTML that must stay text and a word that must not widen the page. */
const ANSWER = [
  'The capital of France is **Paris**.',
  '',
  '- the Louvre',
  '- the Seine',
  '',
  'Read [the guide](https://example.com/paris) before you go.',
  '',
  '```ts',
  'const capital: string = "Paris";',
  '```',
  '',
  'Raw HTML is text: <img src=x onerror=alert(1)>',
  '',
  LONG_WORD,
].join('\n');

/**
 * Every turn: a batch whose results are Markdown text, a JSON object with one long line and a large
 * unbroken blob (folded), then the Markdown answer.
 */
const READING_SCRIPT = [
  batch(
    ['echo', { text: 'Echoed *Markdown* with `code`' }],
    ['echo', { text: JSON.stringify({ line: 'j'.repeat(600), done: true }) }],
    ['blob', { bytes: 3000 }],
  ),
  `${ANSWER}<end>`,
];

const SCREENSHOTS = 'test-artifacts/console';
const WIDE = { width: 1200, height: 800 };
const NARROW = { width: 420, height: 900 };
/** How long `expect.poll` waits for the page to show something. */
const UNTIL = { timeout: PAGE_WAIT_MS };
/** The page's background in each theme: the stylesheet's `--tint`. */
const LIGHT_BACKGROUND = 'rgb(243, 245, 248)';
const DARK_BACKGROUND = 'rgb(17, 21, 26)';

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });

/** How far the page scrolls sideways: 0 when nothing is wider than the window. */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });

/** The computed background colour of the page's `<html>`. */
const background = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

describe.skipIf(chromiumMissing !== undefined)(
  `reading in the web console in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let served: Served;
    let browser: Browser;
    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      [served, browser] = await Promise.all([
        serveScript('console-reading', READING_SCRIPT, IN_MEMORY_STORE),
        launchChromium(),
      ]);
    }, START_WAIT_MS);
    afterAll(async () => {
      await browser?.close();
      await served?.stop();
    });

    /** A page signed in as `tenant` (in a context of its own) showing a new session's ended turn. */
    async function endedSession(tenant: string, options: BrowserContextOptions = {}): Promise<Page> {
      const context = await signedInContext(browser, tenant, { viewport: WIDE, ...options });
      const page = await context.newPage();
      const client = new AgentStepClient({ baseUrl: served.url, token: tenant });
      const { session } = await client.start({ message: 'Tell me about Paris' });
      await page.goto(`${served.url}/#/sessions/${session}`);
      await page.locator('.item.turn-end').waitFor();
      return page;
    }

    it('shows an answer’s Markdown as elements: bold, lists, safe links, highlighted code, raw HTML as text', async () => {
      const page = await endedSession('ann');
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const answer = page.locator('.item.respond');
      expect(await answer.locator('strong').textContent()).toBe('Paris');
      expect(await answer.locator('ul > li').allTextContents()).toEqual(['the Louvre', 'the Seine']);
      const link = answer.getByRole('link', { name: 'the guide' });
      expect(await link.getAttribute('href')).toBe('https://example.com/paris');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await link.getAttribute('target')).toBe('_blank');
      const code = answer.locator('pre code.language-ts');
      expect(await code.textContent()).toBe('const capital: string = "Paris";');
      expect(await code.locator('span.hljs-keyword').count()).toBeGreaterThan(0);
      expect(await code.locator('span.hljs-string').textContent()).toBe('"Paris"');
      // The raw tag is shown as the characters it is: no element, nothing run.
      expect(await answer.textContent()).toContain('<img src=x onerror=alert(1)>');
      expect(await page.locator('img').count()).toBe(0);
      expect(dialogs).toEqual([]);
      // Results: text as Markdown, JSON as highlighted code, a large blob folded.
      const outcomes = page.locator('.call .outcome');
      expect(await outcomes.nth(0).locator('em').textContent()).toBe('Markdown');
      expect(await outcomes.nth(1).locator('pre code.language-json .hljs-attr').first().textContent()).toBe(
        '"line"',
      );
      await outcomes.nth(2).locator('details.folded summary').click();
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      await shot(page, 'reading-light-wide');
      await page.setViewportSize(NARROW);
      await expect.poll(() => sidewaysScroll(page), UNTIL).toBeLessThanOrEqual(0);
      await shot(page, 'reading-light-narrow');
      await page.context().close();
    });

    it('follows the system’s dark scheme, and the header’s theme select overrides it and is remembered', async () => {
      const page = await endedSession('bea', { colorScheme: 'dark' });
      const theme = page.getByLabel('Theme');
      expect(await theme.inputValue()).toBe('system');
      expect(await background(page)).toBe(DARK_BACKGROUND);
      await shot(page, 'reading-dark-wide');
      await page.setViewportSize(NARROW);
      await expect.poll(() => sidewaysScroll(page), UNTIL).toBeLessThanOrEqual(0);
      await shot(page, 'reading-dark-narrow');
      await theme.selectOption('light');
      await expect.poll(() => background(page), UNTIL).toBe(LIGHT_BACKGROUND);
      await page.reload();
      await page.locator('.item.turn-end').waitFor();
      expect(await page.getByLabel('Theme').inputValue()).toBe('light');
      expect(await background(page)).toBe(LIGHT_BACKGROUND);
      await page.getByLabel('Theme').selectOption('system');
      await expect.poll(() => background(page), UNTIL).toBe(DARK_BACKGROUND);
      await page.context().close();
    });

    it('turns dark from the theme select on a light system', async () => {
      const page = await endedSession('cleo', { colorScheme: 'light' });
      expect(await background(page)).toBe(LIGHT_BACKGROUND);
      await page.getByLabel('Theme').selectOption('dark');
      await expect.poll(() => background(page), UNTIL).toBe(DARK_BACKGROUND);
      await page.context().close();
    });
  },
);
