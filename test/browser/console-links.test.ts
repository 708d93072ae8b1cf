import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AgentStepClient } from '@agentstep/client';
import { tenantTag } from '@agentstep/runtime';
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

/** Every turn: a batch of one `echo`, then an answer (a session with a batch's results to fork at). */
const SCRIPT = [batch(['echo', { text: 'hello' }]), 'Echoed.<end>'];

const example = (file: string) => fileURLToPath(new URL(`../../examples/workflows/${file}`, import.meta.url));
/** A run that waits at its human gate, its goals in their sessions. */
const GATED = readFileSync(example('converge-review.agentfile'), 'utf8');
/** A run whose second goal fails (its script is empty): its message names the goal's session. */
const FAILING =
  'NAME fails-at-review\nGOAL draft "Write a draft."\nGOAL review "Review it."\nRUN main USING draft, review\n';
/** Both runs' scripts by goal: the example's, and the failing run's. */
const GOAL_SCRIPTS = {
  ...JSON.parse(readFileSync(example('converge-review.script.json'), 'utf8')),
  draft: ['A draft.<end>'],
  review: [],
};

const TENANT = 'ida';
const VIEWPORT = { width: 1200, height: 800 };
const UNTIL = { timeout: PAGE_WAIT_MS };

/** A console page as its hash names it. */
type Hash = `#/${string}`;

/**
 * Where each known id shows on the page outside a link and outside the page's own heading: ids a
 * reader sees and cannot open. An id counts only whole (not inside a longer one).
 */
function unlinkedIds(page: Page, ids: readonly string[]): Promise<string[]> {
  return page.evaluate((known) => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (node.parentElement?.closest('a, h1, script, style')) continue;
      for (const id of known) {
        const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        if (new RegExp(`(?<![\\w.-])${escaped}(?![\\w-]|\\.[\\w-])`).test(text))
          found.push(`${id} in "${text}"`);
      }
    }
    return found;
  }, ids);
}

/** The console pages the page links to. */
const pageLinks = (page: Page) =>
  page.$$eval('a[href^="#/"]', (links) => links.map((link) => link.getAttribute('href') ?? ''));

describe.skipIf(chromiumMissing !== undefined)(
  `the web console's ids in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let sessions: Served;
    let workflows: Served;
    let browser: Browser;
    beforeAll(async () => {
      sessions = await serveScript('console-links', SCRIPT, IN_MEMORY_STORE);
      [workflows, browser] = await Promise.all([
        serveScript('console-links-workflows', GOAL_SCRIPTS, IN_MEMORY_STORE),
        launchChromium(),
      ]);
    }, START_WAIT_MS);
    afterAll(async () => {
      await browser?.close();
      await Promise.all([sessions?.stop(), workflows?.stop()]);
    });

    /** Waits until `run` has `status`. */
    async function runSettled(client: AgentStepClient, run: string, status: string): Promise<void> {
      await expect.poll(async () => (await client.workflow(run)).status, UNTIL).toBe(status);
    }

    /**
     * Opens every console page reachable from the lists, link by link: each link opens a page that
     * names its id in its heading with no error, and no page shows a known id it does not link to,
     * nor any id as the store keeps it (with the tenant's tag).
     */
    async function walk(
      served: Served,
      ids: readonly string[],
      ready: Readonly<Record<Hash, string | string[]>>,
    ): Promise<Set<string>> {
      const page = await (await signedInContext(browser, TENANT, { viewport: VIEWPORT })).newPage();
      const queue: Hash[] = ['#/', '#/workflows'];
      const opened = new Set<string>();
      for (let hash = queue.shift(); hash !== undefined; hash = queue.shift()) {
        if (opened.has(hash)) continue;
        opened.add(hash);
        await page.goto(`${served.url}/${hash}`);
        await pageLoaded(page, hash, ready);
        expect(await page.getByRole('alert').count(), `an error on ${hash}`).toBe(0);
        expect(await unlinkedIds(page, ids), `ids on ${hash} that open nothing`).toEqual([]);
        expect(await page.locator('body').textContent(), `a stored id on ${hash}`).not.toContain(
          tenantTag(TENANT),
        );
        for (const link of await pageLinks(page)) queue.push(link as Hash);
      }
      await page.context().close();
      return opened;
    }

    it('links every id a page shows to a page that opens, from the session lists to forks', async () => {
      const client = new AgentStepClient({ baseUrl: sessions.url, token: TENANT });
      const { session } = await client.start({ message: 'Echo hello' });
      for await (const item of client.stream(session)) if (item.type === 'done') break;
      const { events } = await client.events(session);
      const results = events.find((event) => event.type === 'result')?.seq ?? 0;
      const { session: fork } = await client.fork(session, { at: results });
      const opened = await walk(sessions, [session, fork], { [`#/sessions/${fork}`]: '.forked-from a' });
      expect([...opened].sort()).toEqual(
        ['#/', '#/workflows', `#/sessions/${session}`, `#/sessions/${fork}`].sort(),
      );
    });

    it('links every id a workflow run shows, goal sessions and a failed run’s message included', async () => {
      const client = new AgentStepClient({ baseUrl: workflows.url, token: TENANT });
      const gated = (await client.startWorkflow({ agentfile: GATED })).run;
      const failing = (await client.startWorkflow({ agentfile: FAILING })).run;
      await runSettled(client, failing, 'failed');
      await expect.poll(async () => (await client.workflow(gated)).gates.length, UNTIL).toBe(1);
      const failed = await client.workflow(failing);
      expect(failed.message).toMatch(new RegExp(`see session ${failing}\\.2\\.$`));
      const goalSessions = [`${gated}.1`, `${failing}.1`, `${failing}.2`];
      const ready: Record<Hash, string | string[]> = {
        // Its gate comes with the run's summary, the record of its goal's session from its stream.
        [`#/workflows/${gated}`]: ['.gate-card', `a[href="#/sessions/${gated}.1"]`],
        [`#/workflows/${failing}`]: ['.workflow-page .status a', `a[href="#/sessions/${failing}.1"]`],
      };
      for (const id of goalSessions) ready[`#/sessions/${id}`] = '.goal-of a';
      const opened = await walk(workflows, [gated, failing, ...goalSessions], ready);
      expect([...opened]).toEqual(
        expect.arrayContaining([
          `#/workflows/${gated}`,
          `#/workflows/${failing}`,
          ...goalSessions.map((id) => `#/sessions/${id}`),
        ]),
      );
    });
  },
);

/** What each list shows once its first page has come: its rows, or what to do when it has none. */
const LIST_READY: Record<string, string> = {
  '#/': '.sessions-page tbody tr, .sessions-page p.status',
  '#/workflows': '.workflows-page tbody tr, .workflows-page p.status',
};

/**
 * Waits until the page `hash` names has come: a list its first page, a session or run its heading
 * and first row, and what `ready` names for it (a part read apart from the rest, such as a fork's
 * origin or a goal session's run; each of several), so the ids it will show are there to check.
 */
async function pageLoaded(
  page: Page,
  hash: Hash,
  ready: Readonly<Record<Hash, string | string[]>>,
): Promise<void> {
  const list = LIST_READY[hash];
  if (list !== undefined) return page.locator(list).first().waitFor(UNTIL);
  const [, kind, id = ''] = hash.split('/');
  await expect.poll(() => page.locator('h1').textContent(), UNTIL).toContain(decodeURIComponent(id));
  await page
    .locator(kind === 'sessions' ? '.timeline li' : '.records li')
    .first()
    .waitFor(UNTIL);
  for (const part of [ready[hash] ?? []].flat()) await page.locator(part).first().waitFor(UNTIL);
}
