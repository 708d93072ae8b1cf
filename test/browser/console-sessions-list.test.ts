import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentStepClient, type SessionListItem } from '@agentstep/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe-violations.js';
import {
  chromiumMissing,
  launchChromium,
  PAGE_WAIT_MS,
  START_WAIT_MS,
  signedInContext,
} from '../support/chromium.js';
import { batch } from '../support/harness.js';
import { IN_MEMORY_STORE, type Served, serveScript } from '../support/serve-client.js';

/** How many `sleep` calls each turn's one step makes: a held turn sleeps the longest a call may, this many times. */
const SLEEPS = 5;
/** The longest a `sleep` call may wait (the demo tool's bound). */
const LONGEST_SLEEP_MS = 60_000;
/** A `sleep` call of no time that returns `value`. */
const sleepCall = (value: string): [string, Record<string, unknown>] => ['sleep', { ms: 0, value }];
/**
 * Every turn: one step, a batch of `sleep` calls that wait for approval (`--approve sleep`), and no
 * second step. Approved as they are, the turn fails (the script has no step 2), or ends `limit`
 * with `maxSteps: 1`; approved with the longest sleep, one after another, it runs for minutes;
 * left undecided, it waits.
 */
const SCRIPT = [
  {
    // Each its own value: the same call made three times would stop the turn (`RepeatedCall`).
    chunks: [batch(...Array.from({ length: SLEEPS }, (_, index) => sleepCall(`rested ${index + 1}`)))],
    usage: { inputTokens: 12_345, outputTokens: 678 },
  },
];
const PRICES = { scripted: { input: 3, output: 15 } };
const TENANT = 'lena';
const SCREENSHOTS = 'test-artifacts/console';
/** The widths issue 38 saw headers break at: a laptop's and a phone's (the list as cards). */
const VIEWPORTS = [
  { name: '1280', size: { width: 1280, height: 800 } },
  { name: '390', size: { width: 390, height: 844 } },
] as const;
/** The narrowest window that shows the list as a table (48rem and a pixel): its columns at their tightest. */
const NARROWEST_TABLE = { name: '769', size: { width: 769, height: 844 } };
const SCHEMES = ['light', 'dark'] as const;
const UNTIL = { timeout: PAGE_WAIT_MS };

/** The sessions the list shows, by how their last turn is left; titles as long as a title gets (80 characters). */
const SESSIONS = {
  limit: 'Summarise the quarterly numbers for the board, region by region, with a chart of each month',
  failed: 'Reconcile the March invoices against the purchase orders and flag every mismatch over 50 EUR',
  waiting: 'Draft the announcement of the new office opening hours and send it to every team lead for review',
  running: 'Book the team offsite for the second week of June, somewhere reachable by train from Lyon',
};
type Kind = keyof typeof SESSIONS;
/** The word each status that must stand out shows in its cell. */
const STANDING_OUT = { waiting: 'waiting', failed: 'failed', running: 'running' } as const;

/** A prices file for `--prices`, so each session has a cost. */
function pricesFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'agentstep-sessions-list-prices-')), 'prices.json');
  writeFileSync(path, JSON.stringify(PRICES));
  return path;
}

/**
 * Reads with `read` until `holds` is true of what it returned (`expect.poll` and `readUntil` are
 * for tests; this runs in `beforeAll`, whose timeout bounds it).
 */
async function readWhen<T>(read: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    await sleep(20);
  }
}

/** The ids of `session`'s calls waiting for approval, once its step has asked for them all. */
const waitingCalls = async (client: AgentStepClient, session: string) =>
  (
    await readWhen(
      () => client.approvals(session),
      (waiting) => waiting.length === SLEEPS,
    )
  ).map(({ id }) => id);

/** How the list says a session stands: its status, and how its last turn ended. */
const statusOf = (listed: SessionListItem) =>
  listed.lastTurn === null ? listed.status : `${listed.status} · last turn ${listed.lastTurn.status}`;

/**
 * Every header word the page shows broken over two lines, as `"Header: word"`: a table header's
 * words (each word's boxes on one line), or, where the list shows its rows as cards, each cell's
 * label (drawn before the cell by the stylesheet: kept on one line, so no word of it breaks).
 */
const brokenHeaderWords = (page: Page) =>
  page.evaluate(() => {
    const broken: string[] = [];
    const linesOf = (rects: DOMRectList) =>
      new Set([...rects].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size;
    for (const header of document.querySelectorAll('table.list thead th')) {
      if (header.getClientRects().length === 0) continue;
      const text = header.firstChild;
      if (!(text instanceof Text)) continue;
      for (const word of text.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        if (linesOf(range.getClientRects()) > 1) broken.push(`${text.data}: ${word[0]}`);
      }
    }
    const measure = document.createElement('canvas').getContext('2d');
    for (const cell of document.querySelectorAll<HTMLElement>('table.list td[data-label]')) {
      const label = getComputedStyle(cell, '::before');
      if (label.content === 'none' || label.display === 'none' || measure === null) continue;
      // A label narrower than its text wraps (its box is as wide as its longest line).
      measure.font = `${label.fontStyle} ${label.fontWeight} ${label.fontSize} ${label.fontFamily}`;
      const text = cell.dataset.label ?? '';
      if (Number.parseFloat(label.width) + 1 < measure.measureText(text).width)
        broken.push(`${text}: label wraps`);
    }
    return broken;
  });

/** How far the page scrolls sideways: 0 when nothing is wider than the window. */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });

/**
 * The colours of the innermost element of `session`'s Status cell that shows `word`, and of its
 * Turns cell (a cell in the list's ordinary colours), each as `color on background`.
 */
const statusColours = (page: Page, session: string, word: string) =>
  page.evaluate(
    ({ session, word }) => {
      const row = document.querySelector(`tr[data-session="${session}"]`);
      const cell = row?.querySelector<HTMLElement>('td[data-label="Status"]');
      const plain = row?.querySelector<HTMLElement>('td[data-label="Turns"]');
      if (!cell || !plain) throw new Error(`no row for ${session}`);
      const holders = [cell, ...cell.querySelectorAll<HTMLElement>('*')].filter((element) =>
        element.textContent?.includes(word),
      );
      const shown = holders.at(-1) ?? cell;
      /** Its text colour on the first background painted under it. */
      const colours = (element: HTMLElement) => {
        let back: Element | null = element;
        let background = 'rgba(0, 0, 0, 0)';
        while (back !== null && background === 'rgba(0, 0, 0, 0)') {
          background = getComputedStyle(back).backgroundColor;
          back = back.parentElement;
        }
        return `${getComputedStyle(element).color} on ${background}`;
      };
      return { text: cell.textContent ?? '', shown: colours(shown), plain: colours(plain) };
    },
    { session, word },
  );

describe.skipIf(chromiumMissing !== undefined)(
  `the sessions list's headers and statuses in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let served: Served;
    let browser: Browser;
    const ids = {} as Record<Kind, string>;

    /** A page of the console as the tenant, at `viewport`, showing the list once it lists every session. */
    async function sessionsList(viewport: { width: number; height: number }): Promise<Page> {
      const context = await signedInContext(browser, TENANT, { viewport });
      const page = await context.newPage();
      await page.goto(`${served.url}/#/`);
      await expect.poll(() => page.locator('tbody tr[data-session]').count(), UNTIL).toBe(4);
      return page;
    }

    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const launching = launchChromium().then((launched) => {
        browser = launched;
      });
      served = await serveScript('console-sessions-list', SCRIPT, [
        ...IN_MEMORY_STORE,
        '--approve',
        'sleep',
        '--prices',
        pricesFile(),
      ]);
      const client = new AgentStepClient({ baseUrl: served.url, token: TENANT });
      ids.limit = (await client.start({ message: SESSIONS.limit, maxSteps: 1 })).session;
      ids.failed = (await client.start({ message: SESSIONS.failed })).session;
      ids.waiting = (await client.start({ message: SESSIONS.waiting })).session;
      // One call at a time, each sleeping its longest: the turn runs for minutes once approved.
      ids.running = (await client.start({ message: SESSIONS.running, toolExecution: 'sequential' })).session;
      for (const kind of ['limit', 'failed'] as const)
        for (const id of await waitingCalls(client, ids[kind]))
          await client.decide(ids[kind], id, { decision: 'approve' });
      for (const [index, id] of (await waitingCalls(client, ids.running)).entries())
        await client.decide(ids.running, id, {
          decision: 'approve',
          args: { ms: LONGEST_SLEEP_MS, value: `rested ${index + 1}` },
        });
      await waitingCalls(client, ids.waiting);
      const expected = {
        limit: 'idle · last turn limit',
        failed: 'idle · last turn failed',
        waiting: 'waiting',
        running: 'running',
      };
      await readWhen(
        async () =>
          new Map(
            (await client.listSessions({})).sessions.map((listed) => [listed.session, statusOf(listed)]),
          ),
        (statuses) =>
          (Object.keys(SESSIONS) as Kind[]).every((kind) => statuses.get(ids[kind]) === expected[kind]),
      );
      await launching;
    }, START_WAIT_MS);
    afterAll(async () => {
      await browser?.close();
      // Ctrl-C would wait for the held turn's sleeps (minutes, even once cancelled); its log is in memory.
      await served?.stop('SIGKILL');
    });

    it.each([...VIEWPORTS, NARROWEST_TABLE])(
      'keeps every header word whole at $name px, nothing wider than the window',
      async ({ size }) => {
        const page = await sessionsList(size);
        for (const colorScheme of SCHEMES) {
          await page.emulateMedia({ colorScheme });
          expect(await brokenHeaderWords(page)).toEqual([]);
        }
        expect(await sidewaysScroll(page)).toBe(0);
        await page.context().close();
      },
    );

    it.each(SCHEMES)(
      'shows waiting, failed and running each in a colour of its own, the word kept (%s)',
      async (colorScheme) => {
        const page = await sessionsList(VIEWPORTS[0].size);
        await page.emulateMedia({ colorScheme });
        const shown = new Map<string, string>();
        for (const [kind, word] of Object.entries(STANDING_OUT)) {
          const colours = await statusColours(page, ids[kind as Kind], word);
          expect(colours.text).toContain(word);
          expect(colours.shown, `${word} in the list's ordinary colours`).not.toBe(colours.plain);
          shown.set(word, colours.shown);
        }
        expect(new Set(shown.values()).size, `colours: ${[...shown].join('; ')}`).toBe(3);
        await page.context().close();
      },
    );

    it.each(VIEWPORTS)(
      'shows the list at $name px with no serious violation, light and dark (screenshots)',
      async ({ name, size }) => {
        const page = await sessionsList(size);
        expect(await seriousViolations(page)).toEqual([]);
        for (const colorScheme of SCHEMES) {
          await page.emulateMedia({ colorScheme });
          const suffix = colorScheme === 'dark' ? '-dark' : '';
          await page.screenshot({
            path: `${SCREENSHOTS}/sessions-list-${name}${suffix}.png`,
            fullPage: true,
          });
        }
        await page.context().close();
      },
    );
  },
);
