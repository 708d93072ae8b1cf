import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentStepClient } from '@agentstep/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumMissing,
  launchChromium,
  newBrowserContext,
  PAGE_WAIT_MS,
  START_WAIT_MS,
  signedInContext,
} from '../support/chromium.js';
import { batch } from '../support/harness.js';
import {
  type ApiEvent,
  approveWaiting,
  eventsOnce,
  IN_MEMORY_STORE,
  type Served,
  serveScript,
} from '../support/serve-client.js';

/** Every turn: a thought, a batch of a `sleep` (of no time) and an `echo`, then an answer; each step reports its tokens. */
const TURN_SCRIPT = [
  {
    chunks: [
      `<think>Wait a moment first.</think>${batch(['sleep', { ms: 0, value: 'rested' }], ['echo', { text: 'hello' }])}`,
    ],
    usage: { inputTokens: 1200, outputTokens: 90 },
  },
  { chunks: ['All done.<end>'], usage: { inputTokens: 1400, outputTokens: 30 } },
];
/** A price for the scripted model, so each step's metric carries a cost. */
const PRICES = { scripted: { input: 3, output: 15 } };
/**
 * Every turn: two `echo` calls that wait for approval, then an answer. Its turns run until the test
 * decides: what the reload and Cancel tests act in the middle of.
 */
const APPROVAL_SCRIPT = [batch(['echo', { text: 'one' }], ['echo', { text: 'two' }]), 'Decided.<end>'];

/** A workflow whose last goal waits at a human gate, and the script each of its goals plays. */
const example = (file: string) => fileURLToPath(new URL(`../../examples/workflows/${file}`, import.meta.url));
const AGENTFILE = example('converge-review.agentfile');
/** The script each of its goals plays. */
const GOAL_SCRIPTS = JSON.parse(readFileSync(example('converge-review.script.json'), 'utf8'));

const SCREENSHOTS = 'test-artifacts/console';
const VIEWPORT = { width: 1200, height: 800 };
/** How long `expect.poll` waits for the page to show something. */
const UNTIL = { timeout: PAGE_WAIT_MS };
/** Longer than the session page's idle check (every 3 s), so each jump of its clock makes it check. */
const IDLE_CHECK_JUMP_MS = 5_000;

/** A prices file for `--prices`. */
function pricesFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'agentstep-console-prices-')), 'prices.json');
  writeFileSync(path, JSON.stringify(PRICES));
  return path;
}

/** A console page on one server, signed in as one tenant: each test has its own. */
interface Tab {
  page: Page;
  url: string;
  tenant: string;
}

const ended = (events: ApiEvent[]) => events.some((event) => event.type === 'turn_end');
/** A phone's viewport, for the narrow screenshots. */
const NARROW = { width: 390, height: 844 };

/**
 * Screenshots of the page as it stands, light and dark, at its width and narrow: NAME.png,
 * NAME-dark.png, NAME-narrow.png and NAME-dark-narrow.png; the page is left as it was.
 */
async function shot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize() ?? VIEWPORT;
  const takes = [
    ['', 'light', size],
    ['-dark', 'dark', size],
    ['-narrow', 'light', NARROW],
    ['-dark-narrow', 'dark', NARROW],
  ] as const;
  for (const [suffix, colorScheme, viewport] of takes) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `${SCREENSHOTS}/${name}${suffix}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
}

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

/** A page (not yet opened) of the console at `url`, in a browser context of its own signed in as `tenant`. */
async function signedInTab(browser: Browser, url: string, tenant: string): Promise<Tab> {
  const context = await signedInContext(browser, tenant, { viewport: VIEWPORT });
  return { page: await context.newPage(), url, tenant };
}

/** The API client of the tab's tenant. */
const clientOf = ({ url, tenant }: Tab) => new AgentStepClient({ baseUrl: url, token: tenant });

/** Starts a session through the API as the tab's tenant and opens its page; resolves with its id. */
async function openSession(tab: Tab, message: string): Promise<string> {
  const { session } = await clientOf(tab).start({ message });
  await tab.page.goto(`${tab.url}/#/sessions/${session}`);
  return session;
}

/** Waits until `session`'s turn has ended on the page; resolves with its logged events. */
async function waitForEnd({ page, url, tenant }: Tab, session: string): Promise<ApiEvent[]> {
  await page.locator('.item.turn-end').waitFor();
  return eventsOnce(url, tenant, session, ended);
}

/** Waits until the page shows both calls of the approvals script waiting for a decision. */
const bothWaiting = (page: Page) => expect.poll(() => page.locator('.approval-card').count(), UNTIL).toBe(2);

/** Every request the page makes from now on to the path `path` of its server (growing as it makes them). */
function requestsTo(page: Page, path: string): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) seen.push(request.url());
  });
  return seen;
}

/**
 * A poll that moves the page's (installed) clock past its idle check, then reads `value`: the page
 * checks as soon as the test asks, not when its timer fires.
 */
const afterIdleCheck =
  <T>(page: Page, value: () => T | Promise<T>) =>
  async () => {
    await page.clock.fastForward(IDLE_CHECK_JUMP_MS);
    return value();
  };

describe.skipIf(chromiumMissing !== undefined)(
  `the web console in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let turns: Served;
    let approvals: Served;
    let workflows: Served;
    let browser: Browser;
    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const launching = launchChromium().then((launched) => {
        browser = launched;
      });
      // The first server builds the CLI's bundle and caches its loop when the sources changed; the others find them.
      turns = await serveScript('console', TURN_SCRIPT, [...IN_MEMORY_STORE, '--prices', pricesFile()]);
      [approvals, workflows] = await Promise.all([
        serveScript('console-approvals', APPROVAL_SCRIPT, [...IN_MEMORY_STORE, '--approve', 'echo']),
        serveScript('console-workflows', GOAL_SCRIPTS, IN_MEMORY_STORE),
      ]);
      await launching;
    }, START_WAIT_MS);
    afterAll(async () => {
      await browser?.close();
      await Promise.all([turns?.stop(), approvals?.stop(), workflows?.stop()]);
    });

    it('asks who signs in on a 401, starts a session from the page and shows its events in log order', async () => {
      const tenant = 'ann';
      const page = await (await newBrowserContext(browser, { viewport: VIEWPORT })).newPage();
      await page.goto(`${turns.url}/`);
      // Nothing has failed yet: the sign-in form alone, no error under it.
      await page.getByLabel('Sign in as').waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      await page.getByLabel('New session: first message').fill('Say hello');
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.getByLabel('Sign in as').fill(tenant);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('New session: first message').fill('Say hello');
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL(/#\/sessions\//);
      const session = decodeURIComponent(new URL(page.url()).hash.replace('#/sessions/', ''));
      await expect.poll(() => page.locator('.call').count(), UNTIL).toBe(2);
      const events = await waitForEnd({ page, url: turns.url, tenant }, session);
      expect(await shownSeqs(page)).toEqual(events.map((event) => event.seq));
      expect(await page.locator('.item.user').textContent()).toContain('Say hello');
      expect(await page.locator('.item.respond').textContent()).toContain('All done.');
      expect(await page.locator('.call .outcome').allTextContents()).toEqual([
        expect.stringContaining('rested'),
        expect.stringContaining('hello'),
      ]);
      // The batch's calls over time, Gantt-style: a run bar each.
      expect(await page.locator('.call-gantt rect.run').count()).toBe(2);
      // Each call says how long it ran.
      expect(await page.locator('.call .outcome .duration').allTextContents()).toEqual([
        expect.stringMatching(/ran \d+\.\d s/),
        expect.stringMatching(/ran \d+\.\d s/),
      ]);
      await expect.poll(() => page.locator('.cost-chart rect').count(), UNTIL).toBe(2);
      await shot(page, 'session');
      // The whole turn on one time line, under its figures: both model steps, and between them the
      // batch's two calls side by side.
      const turn = page.locator('.turn-gantt');
      expect(await turn.locator('summary').textContent()).toMatch(/2 model steps, 2 calls in \d/);
      await turn.locator('summary').click();
      await turn.locator('svg').waitFor();
      expect(await turn.locator('g.bar-step .name').allTextContents()).toEqual([
        'model step 1',
        'model step 2',
      ]);
      expect(await turn.locator('g.bar-call .name').allTextContents()).toEqual(['sleep', 'echo']);
      expect(await turn.locator('rect.run').count()).toBe(4);
      await shot(page, 'turn-timeline');
      await page.goto(`${turns.url}/#/`);
      await page.getByRole('link', { name: session }).waitFor();
      await shot(page, 'sessions');
      await page.context().close();
    });

    it('is usable from the keyboard alone: starts a session and unfolds its thinking with Tab and Enter', async () => {
      const { page } = await signedInTab(browser, turns.url, 'bea');
      await page.goto(`${turns.url}/#/`);
      await page.locator('.new-session').waitFor();
      await tabTo(page, 'New session: first message');
      await page.keyboard.type('Typed, not clicked');
      await tabTo(page, 'Start session');
      await page.keyboard.press('Enter');
      await page.waitForURL(/#\/sessions\//);
      // Tabbing waits for the turn's end, so no element it passes is still being added.
      await page.locator('.item.turn-end').waitFor();
      await tabTo(page, 'Thinking');
      await page.keyboard.press('Enter');
      await page.locator('details.item.think[open]').waitFor();
      await page.context().close();
    });

    it('loses and doubles nothing when the page is reloaded in the middle of a turn', async () => {
      const tab = await signedInTab(browser, approvals.url, 'cleo');
      const { page } = tab;
      const session = await openSession(tab, 'Take your time');
      await bothWaiting(page);
      expect(await page.locator('.item.turn-end').count()).toBe(0);
      await page.reload();
      await bothWaiting(page);
      await approveWaiting(tab.url, tab.tenant, session);
      const events = await waitForEnd(tab, session);
      // Every logged event once (the page shows a batch's result beside its calls, before their approvals).
      const seqs = await shownSeqs(page);
      expect([...seqs].sort((a, b) => a - b)).toEqual(events.map((event) => event.seq));
      expect(new Set(seqs).size).toBe(seqs.length);
      await page.context().close();
    });

    it('follows a turn begun elsewhere once the page’s stream has ended', async () => {
      const tab = await signedInTab(browser, turns.url, 'dee');
      const { page } = tab;
      // The page checks an idle session every few seconds: the test moves its clock on instead of waiting.
      await page.clock.install();
      const session = await openSession(tab, 'First, from here');
      const idleChecks = requestsTo(page, `/sessions/${session}`);
      await waitForEnd(tab, session);
      // It checks only once its stream has ended: from then on, a turn begun elsewhere is not streamed to it.
      const idleChecksMade = () => idleChecks.length;
      await expect.poll(afterIdleCheck(page, idleChecksMade), UNTIL).toBeGreaterThan(0);
      await clientOf(tab).send(session, { message: 'Second, from elsewhere' });
      const twoTurns = (events: ApiEvent[]) =>
        events.filter((event) => event.type === 'turn_end').length === 2;
      const events = await eventsOnce(tab.url, tab.tenant, session, twoTurns);
      const turnEndsShown = () => page.locator('.item.turn-end').count();
      await expect.poll(afterIdleCheck(page, turnEndsShown), UNTIL).toBe(2);
      expect(await page.locator('.item.user', { hasText: 'Second, from elsewhere' }).count()).toBe(1);
      expect(await shownSeqs(page)).toEqual(events.map((event) => event.seq));
      await page.context().close();
    });

    it("shows a fork cut at a batch's results idle, its shared events shown and its next message open", async () => {
      const tab = await signedInTab(browser, turns.url, 'fern');
      const session = await openSession(tab, 'To be forked');
      const events = await waitForEnd(tab, session);
      const seqs = events.map((event) => Number(event.seq));
      const results = seqs[events.findIndex((event) => event.type === 'result')] ?? 0;
      const { session: fork } = await clientOf(tab).fork(session, { at: results });
      await tab.page.context().close();
      const { page } = await signedInTab(browser, turns.url, 'fern');
      await page.goto(`${turns.url}/#/sessions/${fork}`);
      // Idle until the stream's first events arrive, then idle again once it said done.
      await expect.poll(() => shownSeqs(page), UNTIL).toEqual(seqs.filter((seq) => seq <= results));
      await expect.poll(() => page.locator('.status').textContent(), UNTIL).toBe('Idle');
      expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Cancel turn' }).isEnabled()).toBe(false);
      await page.context().close();
    });

    it('forks a session from a batch\'s results with "Fork from here": the fork opens, idle, with the shared events', async () => {
      const tab = await signedInTab(browser, turns.url, 'gil');
      const { page } = tab;
      const session = await openSession(tab, 'Fork me');
      const events = await waitForEnd(tab, session);
      const results = Number(events.find((event) => event.type === 'result')?.seq);
      await page.getByRole('button', { name: 'Fork from here' }).first().click();
      await page.waitForURL((url) => !url.hash.endsWith(`/${session}`));
      await expect
        .poll(() => shownSeqs(page), UNTIL)
        .toEqual(events.map((event) => Number(event.seq)).filter((seq) => seq <= results));
      await expect.poll(() => page.locator('.status').textContent(), UNTIL).toBe('Idle');
      await page.context().close();
    });

    it('approves one waiting call with edited arguments and denies the other with a reason', async () => {
      const tab = await signedInTab(browser, approvals.url, 'eve');
      const { page } = tab;
      const session = await openSession(tab, 'Echo twice');
      await bothWaiting(page);
      await page.locator('.item.approval').nth(1).waitFor();
      // Each waiting call says how long it has been running.
      await expect.poll(() => page.locator('.call .elapsed').count(), UNTIL).toBe(2);
      await shot(page, 'approvals');
      // By its call, not its place: once the first is decided, the list holds the second alone.
      const card = (call: number) =>
        page.locator('.approval-card', { hasText: `call ${call} waits for you` });
      const [first, second] = [card(1), card(2)];
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
      // The approved call ran: it shows finished, with its outcome, while the other still waits.
      await expect
        .poll(() => page.locator('.call .outcome').allTextContents(), UNTIL)
        .toEqual([expect.stringMatching(/success.*uno/)]);
      expect(await page.locator('.call .pending').count()).toBe(1);
      await second.getByLabel('Reason to deny').fill('not today');
      await second.getByRole('button', { name: 'Deny' }).click();
      await waitForEnd(tab, session);
      expect(await page.locator('.call .outcome').allTextContents()).toEqual([
        expect.stringMatching(/success.*uno/),
        expect.stringContaining('denied: not today'),
      ]);
      // Its calls' time line shows each call's wait for its decision before its run, and so does the turn's.
      await expect.poll(() => page.locator('.call-gantt rect.wait').count(), UNTIL).toBe(2);
      await page.locator('.turn-gantt summary').click();
      await page.locator('.turn-gantt svg').waitFor();
      expect(await page.locator('.turn-gantt g.bar-call rect.wait').count()).toBe(2);
      expect(await page.locator('.turn-gantt g.bar-step').count()).toBe(2);
      // The call card shows what the approval changed; once none waits, no approvals box, and no
      // chart while the steps reported no tokens.
      expect(await page.locator('.call .edited-args').allTextContents()).toEqual([
        expect.stringContaining('text: "one" → "uno"'),
      ]);
      await expect.poll(() => page.locator('.approval-card').count(), UNTIL).toBe(0);
      expect(await page.getByRole('heading', { name: /Waiting for you/ }).count()).toBe(0);
      expect(await page.locator('.cost-chart').count()).toBe(0);
      await page.context().close();
    });

    it('cancels a running turn with the Cancel button and shows it cancelled', async () => {
      const tab = await signedInTab(browser, approvals.url, 'fay');
      const { page } = tab;
      const session = await openSession(tab, 'Never mind');
      // The turn waits for decisions nobody gives: it runs until the button cancels it.
      await bothWaiting(page);
      await page.getByRole('button', { name: 'Cancel turn' }).click();
      // The `cancelled` event, then the turn's end (also styled cancelled).
      await page.locator('.item.cancelled:not(.turn-end)').waitFor();
      expect(await page.locator('.item.cancelled:not(.turn-end)').textContent()).toBe(
        'Cancelled by the user.',
      );
      const events = await waitForEnd(tab, session);
      expect(events.at(-1)?.payload?.status).toBe('cancelled');
      expect(await page.getByRole('button', { name: 'Cancel turn' }).isDisabled()).toBe(true);
      await page.context().close();
    });

    it('lists workflow runs and approves the human gate of a run from its page', async () => {
      const tab = await signedInTab(browser, workflows.url, 'gus');
      const { page } = tab;
      const client = clientOf(tab);
      const { run } = await client.startWorkflow({ agentfile: readFileSync(AGENTFILE, 'utf8') });
      await page.goto(`${workflows.url}/#/workflows`);
      await page.getByRole('link', { name: run }).click();
      await page.getByRole('button', { name: 'Approve' }).waitFor();
      expect(await page.locator('.goal h3').first().textContent()).toContain('tighten');
      // The run as a diagram: the converged goal after its iterations, the gate waiting on publish.
      const node = (goal: string) => page.locator(`.run-diagram .node[data-goal="${goal}"]`);
      await expect.poll(() => node('tighten').textContent(), UNTIL).toMatch(/converge · done · 3 iterations/);
      await expect.poll(() => node('publish').textContent(), UNTIL).toContain('gate: waiting');
      // Gates by their goal; each goal's context document on demand.
      expect(await page.locator('.gate-card h3').textContent()).toContain('Gate on publish: waiting');
      await page.locator('.goal .context-document summary').first().click();
      await expect
        .poll(() => page.locator('.goal .context-document pre').first().textContent(), UNTIL)
        .toContain('<');
      await expect
        .poll(() => page.locator('.records li', { hasText: /^run tighten iteration \d/ }).count(), UNTIL)
        .toBe(3);
      await shot(page, 'workflow-run');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('abstract-editor: done').waitFor();
      expect((await client.workflow(run)).gates.map(({ status, by }) => [status, by])).toEqual([
        ['approved', tab.tenant],
      ]);
      // A goal session links back to its run, and its page only reads it.
      await page.locator('.records a').first().click();
      await page.locator('.goal-of a', { hasText: run }).waitFor();
      expect(await page.locator('.goal-of').textContent()).toContain('goal session of workflow run');
      expect(await page.getByLabel('Next message').count()).toBe(0);
      await page.goto(`${workflows.url}/#/workflows`);
      await page.getByRole('cell', { name: 'done' }).waitFor();
      await shot(page, 'workflows');
      await page.context().close();
    });

    it('starts a workflow run from an Agentfile written on the page: problems at their line and column, inputs from its declarations', async () => {
      const tab = await signedInTab(browser, workflows.url, 'hana');
      const { page } = tab;
      await page.goto(`${workflows.url}/#/workflows`);
      // A tenant without runs is told how to start one.
      await page.getByText('No workflow runs yet').waitFor();
      const editor = page.getByLabel('Agentfile', { exact: true });
      await editor.fill('NAME broken\nGOAL');
      await expect.poll(() => page.getByLabel('Problems').textContent(), UNTIL).toMatch(/^2:\d+/);
      expect(await page.getByRole('button', { name: 'Start run' }).isDisabled()).toBe(true);
      // One goal the workflow server's script answers, and an input with a default.
      await editor.fill(
        'NAME titled\nINPUT topic DEFAULT "agents"\nGOAL publish "Title an abstract about $topic."\nRUN only USING publish\n',
      );
      const topic = page.getByLabel('topic');
      expect(await topic.getAttribute('placeholder')).toBe('agents');
      await topic.fill('durable loops');
      await page.getByRole('button', { name: 'Start run' }).click();
      await page.waitForURL(/#\/workflows\/./);
      const run = decodeURIComponent(new URL(page.url()).hash.replace('#/workflows/', ''));
      await expect
        .poll(() => page.locator('.workflow-page .status').textContent(), UNTIL)
        .toContain('titled: done');
      expect((await clientOf(tab).workflow(run)).inputs).toEqual({ topic: 'durable loops' });
      await page.context().close();
    });
  },
);
