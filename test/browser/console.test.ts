import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentStepClient } from '@agentstep/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../support/chromium.js';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import {
  type ApiEvent,
  call,
  eventsOnce,
  type Served,
  serveScript,
  startServe,
} from '../support/serve-client.js';

/** Every turn: a thought, a batch of a 3 s `sleep` and an `echo`, then an answer; each step reports its tokens. */
const SLOW_SCRIPT = [
  {
    chunks: [
      `<think>Wait a moment first.</think>${batch(['sleep', { ms: 3000, value: 'rested' }], ['echo', { text: 'hello' }])}`,
    ],
    usage: { inputTokens: 1200, outputTokens: 90 },
  },
  { chunks: ['All done.<end>'], usage: { inputTokens: 1400, outputTokens: 30 } },
];
/** A price for the scripted model, so each step's metric carries a cost. */
const PRICES = { scripted: { input: 3, output: 15 } };
/** Every turn: two `echo` calls that wait for approval, then an answer. */
const APPROVAL_SCRIPT = [batch(['echo', { text: 'one' }], ['echo', { text: 'two' }]), 'Decided.<end>'];

/** A workflow whose last goal waits at a human gate, and the script each of its goals plays. */
const example = (file: string) => fileURLToPath(new URL(`../../examples/workflows/${file}`, import.meta.url));
const AGENTFILE = example('converge-review.agentfile');

const SCREENSHOTS = 'test-artifacts/console';
const TENANT = 'ann';

const ended = (events: ApiEvent[]) => events.some((event) => event.type === 'turn_end');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });

/** The `seq` of every logged event the page shows, in page order. */
const shownSeqs = (page: Page) =>
  page.$$eval('[data-seq]', (elements) =>
    elements.map((element) => Number(element.getAttribute('data-seq'))),
  );

/** Presses Tab until the focused element is named `name` (its label or text); fails after 30 presses. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let presses = 0; presses < 30; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(
      `(() => { const e = document.activeElement; return (e?.labels?.[0]?.textContent ?? e?.textContent ?? '').trim(); })()`,
    );
    if (focused === name) return;
  }
  throw new Error(`Tab never reached "${name}".`);
}

/** A prices file for `--prices`. */
function pricesFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'agentstep-console-prices-')), 'prices.json');
  writeFileSync(path, JSON.stringify(PRICES));
  return path;
}

/** A browser context whose pages are signed in as the tenant from the start. */
async function signedInContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const credentials = JSON.stringify({ token: TENANT, who: TENANT });
  await context.addInitScript(
    `localStorage.setItem('agentstep.console.credentials', ${JSON.stringify(credentials)})`,
  );
  return context;
}

/** Starts a session through the API as the console's tenant and opens its page; resolves with its id. */
async function openSession(page: Page, url: string, message: string): Promise<string> {
  const { body } = await call(`${url}/sessions`, TENANT, { method: 'POST', json: { message } });
  await page.goto(`${url}/#/sessions/${body.session}`);
  return body.session;
}

/** Shows `session` once its turn has ended on the page; resolves with its logged events. */
async function waitForEnd(page: Page, url: string, session: string): Promise<ApiEvent[]> {
  await page.locator('.item.turn-end').waitFor({ timeout: 30_000 });
  return eventsOnce(url, TENANT, session, ended);
}

describe.skipIf(dynamoEndpoint === '' || chromiumMissing !== undefined)(
  `the web console in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let slow: Served;
    let approvals: Served;
    let workflows: Served;
    let browser: Browser;
    let context: BrowserContext;
    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      [slow, approvals, workflows, browser] = await Promise.all([
        serveScript('console', SLOW_SCRIPT, ['--prices', pricesFile()]),
        serveScript('console-approvals', APPROVAL_SCRIPT, ['--approve', 'echo']),
        startServe(
          ['--auth', 'dev', '--script', example('converge-review.script.json')],
          mkdtempSync(join(tmpdir(), 'agentstep-console-workflows-')),
        ),
        launchChromium(),
      ]);
      context = await signedInContext(browser);
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await Promise.all([slow?.stop(), approvals?.stop(), workflows?.stop()]);
    });

    it('asks who signs in on a 401, starts a session from the page and shows its events in log order', async () => {
      const page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
      await page.goto(`${slow.url}/`);
      await page.getByLabel('New session: first message').fill('Say hello');
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.getByLabel('Sign in as').fill(TENANT);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('New session: first message').fill('Say hello');
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL(/#\/sessions\//);
      const session = decodeURIComponent(new URL(page.url()).hash.replace('#/sessions/', ''));
      await expect.poll(() => page.locator('.call').count(), { timeout: 15_000 }).toBe(2);
      const events = await waitForEnd(page, slow.url, session);
      expect(await shownSeqs(page)).toEqual(events.map((event) => event.seq));
      expect(await page.locator('.item.user').textContent()).toContain('Say hello');
      expect(await page.locator('.item.respond').textContent()).toContain('All done.');
      expect(await page.locator('.call .outcome').allTextContents()).toEqual([
        expect.stringContaining('rested'),
        expect.stringContaining('hello'),
      ]);
      await expect.poll(() => page.locator('.cost-chart rect').count(), { timeout: 5_000 }).toBe(2);
      await shot(page, 'session');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'session-narrow');
      await page.goto(`${slow.url}/#/`);
      await page.getByRole('link', { name: session }).waitFor({ timeout: 10_000 });
      await shot(page, 'sessions');
      await page.close();
    });

    it('is usable from the keyboard alone: starts a session and unfolds its thinking with Tab and Enter', async () => {
      const page = await context.newPage();
      await page.goto(`${slow.url}/#/`);
      await page.locator('.new-session').waitFor();
      await tabTo(page, 'New session: first message');
      await page.keyboard.type('Typed, not clicked');
      await tabTo(page, 'Start session');
      await page.keyboard.press('Enter');
      await page.waitForURL(/#\/sessions\//);
      await page.locator('.item.think').waitFor({ timeout: 15_000 });
      await tabTo(page, 'Thinking');
      await page.keyboard.press('Enter');
      expect(await page.locator('details.item.think').getAttribute('open')).not.toBeNull();
      await page.close();
    });

    it('loses and doubles nothing when the page is reloaded in the middle of a turn', async () => {
      const page = await context.newPage();
      const session = await openSession(page, slow.url, 'Take your time');
      await page.locator('.call').first().waitFor();
      expect(await page.locator('.item.turn-end').count()).toBe(0);
      await page.reload();
      const events = await waitForEnd(page, slow.url, session);
      const seqs = await shownSeqs(page);
      expect(seqs).toEqual(events.map((event) => event.seq));
      expect(new Set(seqs).size).toBe(seqs.length);
      await page.close();
    });

    it('follows a turn begun elsewhere once the page’s stream has ended', async () => {
      const page = await context.newPage();
      const session = await openSession(page, slow.url, 'First, from here');
      await waitForEnd(page, slow.url, session);
      await call(`${slow.url}/sessions/${session}/messages`, TENANT, {
        method: 'POST',
        json: { message: 'Second, from elsewhere' },
      });
      await page.locator('.item.user', { hasText: 'Second, from elsewhere' }).waitFor({ timeout: 15_000 });
      const twoTurns = (events: ApiEvent[]) =>
        events.filter((event) => event.type === 'turn_end').length === 2;
      const events = await eventsOnce(slow.url, TENANT, session, twoTurns);
      await expect.poll(() => page.locator('.item.turn-end').count(), { timeout: 15_000 }).toBe(2);
      expect(await shownSeqs(page)).toEqual(events.map((event) => event.seq));
      await page.close();
    });

    it('approves one waiting call with edited arguments and denies the other with a reason', async () => {
      const page = await context.newPage();
      const session = await openSession(page, approvals.url, 'Echo twice');
      await expect.poll(() => page.locator('.approval-card').count(), { timeout: 15_000 }).toBe(2);
      await page.locator('.item.approval').nth(1).waitFor();
      await shot(page, 'approvals');
      const [first, second] = [page.locator('.approval-card').nth(0), page.locator('.approval-card').nth(1)];
      await first.getByLabel('Arguments (JSON)').fill('{"text": ');
      await first.getByRole('button', { name: 'Approve' }).click();
      await first.getByText('not valid JSON').waitFor();
      // Checked against echo's schema in the page: nothing is sent, the call still waits.
      await first.getByLabel('Arguments (JSON)').fill('{"text": 5}');
      await first.getByRole('button', { name: 'Approve' }).click();
      await first.getByText('nothing was sent').waitFor();
      await first.locator('.error-note li', { hasText: 'args.text' }).getByText('must be string').waitFor();
      await first.getByLabel('Arguments (JSON)').fill('{"text": "uno"}');
      await first.getByRole('button', { name: 'Approve' }).click();
      await second.getByLabel('Reason to deny').fill('not today');
      await second.getByRole('button', { name: 'Deny' }).click();
      await waitForEnd(page, approvals.url, session);
      expect(await page.locator('.call .outcome').allTextContents()).toEqual([
        expect.stringMatching(/success.*uno/),
        expect.stringContaining('denied: not today'),
      ]);
      await expect.poll(() => page.locator('.approval-card').count(), { timeout: 5_000 }).toBe(0);
      await page.close();
    });

    it('cancels a running turn with the Cancel button and shows it cancelled', async () => {
      const page = await context.newPage();
      const session = await openSession(page, slow.url, 'Never mind');
      await page.locator('.call').first().waitFor();
      await page.getByRole('button', { name: 'Cancel turn' }).click();
      await page.locator('.item.cancelled').waitFor({ timeout: 10_000 });
      const events = await waitForEnd(page, slow.url, session);
      expect(events.at(-1)?.payload?.status).toBe('cancelled');
      expect(await page.getByRole('button', { name: 'Cancel turn' }).isDisabled()).toBe(true);
      await page.close();
    });

    it('lists workflow runs and approves the human gate of a run from its page', async () => {
      const client = new AgentStepClient({ baseUrl: workflows.url, token: TENANT });
      const { run } = await client.startWorkflow({ agentfile: readFileSync(AGENTFILE, 'utf8') });
      const page = await context.newPage();
      await page.goto(`${workflows.url}/#/workflows`);
      await page.getByRole('link', { name: run }).click();
      await page.getByRole('button', { name: 'Approve' }).waitFor({ timeout: 60_000 });
      expect(await page.locator('.goal h3').first().textContent()).toContain('tighten');
      await expect
        .poll(() => page.locator('.records li', { hasText: /^run tighten iteration \d/ }).count())
        .toBe(3);
      await shot(page, 'workflow-run');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('abstract-editor: done').waitFor({ timeout: 60_000 });
      expect((await client.workflow(run)).gates.map(({ status, by }) => [status, by])).toEqual([
        ['approved', TENANT],
      ]);
      await page.goto(`${workflows.url}/#/workflows`);
      await page.getByRole('cell', { name: 'done' }).waitFor();
      await shot(page, 'workflows');
      await page.close();
    });
  },
);
