import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentStepClient } from '@agentstep/client';
import type { Browser, Page } from 'playwright-core';
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

/**
 * Every turn: one step, an `echo` that waits for approval, and no second step. A turn that asks
 * for it (the default) fails once approved (the script has no step 2); one with `maxSteps: 1` ends
 * `limit`; one left unapproved waits.
 */
const SCRIPT = [
  { chunks: [batch(['echo', { text: 'noted' }])], usage: { inputTokens: 1000, outputTokens: 50 } },
];
const PRICES = { scripted: { input: 3, output: 15 } };
const TENANT = 'finn';
const SCREENSHOTS = 'test-artifacts/console';
const VIEWPORT = { width: 1200, height: 800 };
const UNTIL = { timeout: PAGE_WAIT_MS };

/** The sessions the tests find, by first message: how each turn is left. */
const SESSIONS = {
  report: {
    message: '  Draft the QUARTERLY report\n\nfor Ann  ',
    title: 'Draft the QUARTERLY report for Ann',
  },
  invoices: { message: 'Check the invoices from March', title: 'Check the invoices from March' },
  numbers: { message: 'Summarise the quarterly numbers', title: 'Summarise the quarterly numbers' },
  offsite: { message: 'Book the team offsite', title: 'Book the team offsite' },
};

/** A prices file for `--prices`, so each session has a cost. */
function pricesFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'agentstep-finding-prices-')), 'prices.json');
  writeFileSync(path, JSON.stringify(PRICES));
  return path;
}

/** Follows `session`'s stream until its call waits for approval (the stream is left there). */
async function waitingCall(client: AgentStepClient, session: string): Promise<void> {
  for await (const item of client.stream(session)) {
    if (item.type === 'approval' && 'seq' in item && item.event.type === 'approval') {
      if (item.event.payload?.status === 'requested') return;
    }
  }
  throw new Error(`${session}'s stream ended with no call waiting for approval.`);
}

/** Approves `session`'s waiting call once it waits; resolves with how its turn ended. */
async function approveToEnd(client: AgentStepClient, session: string): Promise<string> {
  await waitingCall(client, session);
  for (const { id } of await client.approvals(session))
    await client.decide(session, id, { decision: 'approve' });
  for await (const item of client.stream(session)) if (item.type === 'done') return item.status;
  throw new Error(`${session}'s stream ended without done.`);
}

/** The ids of the rows the page lists, in page order. */
const listedIds = (page: Page) =>
  page.$$eval('tbody tr[data-session]', (rows) => rows.map((row) => row.getAttribute('data-session') ?? ''));

/** The id of the row that has the focus, if a row has it. */
const focusedId = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-session') ?? null);

describe.skipIf(chromiumMissing !== undefined)(
  `finding sessions in the web console${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let served: Served;
    let browser: Browser;
    const ids: Record<keyof typeof SESSIONS, string> = { report: '', invoices: '', numbers: '', offsite: '' };

    /** A page of the console signed in as `tenant`, showing the sessions list. */
    async function sessionsList(tenant = TENANT): Promise<Page> {
      const context = await signedInContext(browser, tenant, { viewport: VIEWPORT });
      const page = await context.newPage();
      await page.goto(`${served.url}/#/`);
      return page;
    }

    /** Waits until the list shows exactly `expected` (their ids), in any order. */
    const lists = (page: Page, ...expected: Array<keyof typeof SESSIONS>) =>
      expect
        .poll(async () => (await listedIds(page)).sort(), UNTIL)
        .toEqual(expected.map((name) => ids[name]).sort());

    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const launching = launchChromium().then((launched) => {
        browser = launched;
      });
      served = await serveScript('console-finding', SCRIPT, [
        ...IN_MEMORY_STORE,
        '--approve',
        'echo',
        '--prices',
        pricesFile(),
      ]);
      const client = new AgentStepClient({ baseUrl: served.url, token: TENANT });
      const limited = { maxSteps: 1 };
      // Oldest first: the list shows them newest first.
      ids.report = (await client.start({ message: SESSIONS.report.message })).session;
      ids.invoices = (await client.start({ message: SESSIONS.invoices.message, ...limited })).session;
      ids.numbers = (await client.start({ message: SESSIONS.numbers.message, ...limited })).session;
      ids.offsite = (await client.start({ message: SESSIONS.offsite.message })).session;
      expect(await approveToEnd(client, ids.report)).toBe('failed');
      expect(await approveToEnd(client, ids.invoices)).toBe('limit');
      expect(await approveToEnd(client, ids.numbers)).toBe('limit');
      await waitingCall(client, ids.offsite);
      await launching;
    }, START_WAIT_MS);
    afterAll(async () => {
      await browser?.close();
      await served?.stop();
    });

    it('titles each session by its first message, with its tokens and cost, and the list’s totals', async () => {
      const page = await sessionsList();
      await lists(page, 'report', 'invoices', 'numbers', 'offsite');
      for (const name of ['report', 'invoices', 'numbers', 'offsite'] as const) {
        const link = page.locator(`tr[data-session="${ids[name]}"] a`);
        expect(await link.textContent()).toBe(`${SESSIONS[name].title} ${ids[name]}`);
      }
      const report = page.locator(`tr[data-session="${ids.report}"]`);
      expect(await report.locator('td[data-label="Status"]').textContent()).toBe('idle · last turn failed');
      expect(await report.locator('td[data-label="Tokens in / out"]').textContent()).toBe('1,000 / 50');
      // 1,000 tokens at $3 and 50 at $15 per million: $0.00375 each, $0.015 (shown to the cent) for the four.
      expect(await report.locator('td[data-label="Cost"]').textContent()).toBe('$0.00375');
      expect(await page.locator('.list-totals').textContent()).toBe(
        '4 sessions listed · 4,000 tokens in / 200 out · $0.01',
      );
      await page.context().close();
    });

    it('narrows the list by a search of titles and ids, and says when nothing matches', async () => {
      const page = await sessionsList();
      await lists(page, 'report', 'invoices', 'numbers', 'offsite');
      const search = page.getByLabel('Search titles and ids');
      await search.fill('quarterly');
      await lists(page, 'report', 'numbers');
      expect(await page.locator('.list-totals').textContent()).toContain('2 sessions listed');
      await search.fill(ids.invoices.slice(-5).toUpperCase());
      await search.press('Enter');
      await lists(page, 'invoices');
      await search.fill('a holiday in Rome');
      await page.getByText('No session matches “a holiday in Rome”.').waitFor();
      expect(await listedIds(page)).toEqual([]);
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await lists(page, 'report', 'invoices', 'numbers', 'offsite');
      expect(await search.inputValue()).toBe('');
      await page.context().close();
    });

    it('filters by status (a failed last turn too) and by creation date', async () => {
      const page = await sessionsList();
      await lists(page, 'report', 'invoices', 'numbers', 'offsite');
      const status = page.getByLabel('Status');
      await status.selectOption('failed');
      await lists(page, 'report');
      await status.selectOption('waiting');
      await lists(page, 'offsite');
      await status.selectOption('idle');
      await lists(page, 'report', 'invoices', 'numbers');
      await status.selectOption('');
      await lists(page, 'report', 'invoices', 'numbers', 'offsite');
      const created = page.getByLabel('Created on or after');
      const day = (offset: number) => {
        const date = new Date();
        date.setDate(date.getDate() + offset);
        const pad = (value: number) => String(value).padStart(2, '0');
        return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
      };
      await created.fill(day(1));
      await page.getByText(`No session matches created on or after ${day(1)}.`).waitFor();
      await created.fill(day(0));
      await lists(page, 'report', 'invoices', 'numbers', 'offsite');
      await page.context().close();
    });

    it('moves between sessions with the arrow keys and opens one with Enter', async () => {
      const page = await sessionsList();
      await lists(page, 'report', 'invoices', 'numbers', 'offsite');
      const order = await listedIds(page);
      await page.getByLabel('Search titles and ids').focus();
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => focusedId(page), UNTIL).toBe(order[0]);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => focusedId(page), UNTIL).toBe(order[2]);
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => focusedId(page), UNTIL).toBe(order[1]);
      await page.screenshot({ path: `${SCREENSHOTS}/sessions-list.png`, fullPage: true });
      await page.keyboard.press('Enter');
      await page.waitForURL(`${served.url}/#/sessions/${order[1]}`);
      await page.locator('.item.user').first().waitFor();
      await page.context().close();
    });

    it('tells a tenant without sessions how to start one', async () => {
      const page = await sessionsList('newcomer');
      await page.getByText('No sessions yet: start one above with its first message.').waitFor();
      expect(await page.locator('.list-totals').count()).toBe(0);
      await page.context().close();
    });
  },
);
