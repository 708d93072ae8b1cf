import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AgentStepClient } from '@agentstep/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe-violations.js';
import {
  chromiumMissing,
  launchChromium,
  newBrowserContext,
  PAGE_WAIT_MS,
  START_WAIT_MS,
  signedInContext,
} from '../support/chromium.js';
import { batch } from '../support/harness.js';
import { approveWaiting, IN_MEMORY_STORE, type Served, serveScript } from '../support/serve-client.js';

/** An answer in Markdown: a heading, emphasis, a list, a link, and a table and a code block wider than their card. */
const ANSWER = [
  '## Both echoed',
  '',
  'The calls answered **hello** and *again*:',
  '',
  '- [the guide](https://example.com/guide)',
  '- `inline code`',
  '',
  '| call | answer | where |',
  '| --- | ---: | --- |',
  '| 1 | hello | here |',
  `| 2 | again | ${'/a/path/too/long/to/wrap'.repeat(12)} |`,
  '',
  '```ts',
  `const answers: string[] = ["hello", "again"]; // ${'a wide line that scrolls inside its card '.repeat(6)}`,
  '```',
].join('\n');

/**
 * Every turn: a thought and a batch of two `echo` calls (which wait for approval, `--approve echo`),
 * then the Markdown answer; each step reports its tokens, so the cost chart is shown.
 */
const SCRIPT = [
  {
    chunks: [`<think>Echo twice.</think>${batch(['echo', { text: 'hello' }], ['echo', { text: 'again' }])}`],
    usage: { inputTokens: 1200, outputTokens: 90 },
  },
  { chunks: [`${ANSWER}<end>`], usage: { inputTokens: 1400, outputTokens: 120 } },
];

/** A workflow whose last goal waits at a human gate, and the script each of its goals plays. */
const example = (file: string) => fileURLToPath(new URL(`../../examples/workflows/${file}`, import.meta.url));
const AGENTFILE = example('converge-review.agentfile');
/** The script each of its goals plays. */
const GOAL_SCRIPTS = JSON.parse(readFileSync(example('converge-review.script.json'), 'utf8'));

const VIEWPORT = { width: 1200, height: 800 };
/** How long `expect.poll` waits for the page to show something. */
const UNTIL = { timeout: PAGE_WAIT_MS };

describe.skipIf(chromiumMissing !== undefined)(
  `the web console's accessibility (axe-core) in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let sessions: Served;
    let workflows: Served;
    let browser: Browser;
    beforeAll(async () => {
      // The first server builds the CLI's bundle when the sources changed; the second finds it.
      sessions = await serveScript('console-a11y', SCRIPT, [...IN_MEMORY_STORE, '--approve', 'echo']);
      [workflows, browser] = await Promise.all([
        serveScript('console-a11y-workflows', GOAL_SCRIPTS, IN_MEMORY_STORE),
        launchChromium(),
      ]);
    }, START_WAIT_MS);
    afterAll(async () => {
      await browser?.close();
      await Promise.all([sessions?.stop(), workflows?.stop()]);
    });

    /** A page (not yet opened) in a browser context of its own, signed in as `tenant`. */
    async function signedInPage(tenant: string): Promise<Page> {
      const context = await signedInContext(browser, tenant, { viewport: VIEWPORT });
      return context.newPage();
    }

    /** Starts a session as `tenant` and opens its page once both its calls wait for a decision. */
    async function sessionWaiting(tenant: string): Promise<{ page: Page; session: string }> {
      const page = await signedInPage(tenant);
      const client = new AgentStepClient({ baseUrl: sessions.url, token: tenant });
      const { session } = await client.start({ message: 'Echo **twice**, please' });
      await page.goto(`${sessions.url}/#/sessions/${session}`);
      await expect.poll(() => page.locator('.approval-card').count(), UNTIL).toBe(2);
      return { page, session };
    }

    it('asks who signs in, before any credentials, with no serious violation', async () => {
      const page = await (await newBrowserContext(browser, { viewport: VIEWPORT })).newPage();
      await page.goto(`${sessions.url}/`);
      await page.getByLabel('Sign in as').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });

    it('shows a session with calls waiting for approval with no serious violation', async () => {
      const { page } = await sessionWaiting('ann');
      await page.locator('details.item.think summary').click();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });

    it('shows a session with a finished turn (Markdown answer, cost chart, the turn’s timeline) with no serious violation', async () => {
      const { page, session } = await sessionWaiting('bea');
      await approveWaiting(sessions.url, 'bea', session);
      await page.locator('.item.turn-end').waitFor();
      await page.locator('.cost-chart').waitFor();
      await page.locator('.turn-gantt summary').click();
      await page.locator('.turn-gantt svg').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });

    it('lists sessions (search, filters, totals) with no serious violation', async () => {
      const { page, session } = await sessionWaiting('cleo');
      await page.goto(`${sessions.url}/#/`);
      // Its row focused, as the arrow keys leave it.
      await page.locator(`tr[data-session="${session}"]`).focus();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });

    it('shows the workflow runs and the start form (inputs, then problems) with no serious violation', async () => {
      const page = await signedInPage('dee');
      const client = new AgentStepClient({ baseUrl: workflows.url, token: 'dee' });
      const { run } = await client.startWorkflow({ agentfile: readFileSync(AGENTFILE, 'utf8') });
      await page.goto(`${workflows.url}/#/workflows`);
      await page.getByRole('link', { name: run }).waitFor();
      const editor = page.getByLabel('Agentfile', { exact: true });
      await editor.fill(readFileSync(AGENTFILE, 'utf8'));
      await page.getByLabel('topic').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await editor.fill('NAME broken\nGOAL');
      await page.getByLabel('Problems').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });

    it('shows a workflow run waiting at its human gate with no serious violation', async () => {
      const page = await signedInPage('eve');
      const client = new AgentStepClient({ baseUrl: workflows.url, token: 'eve' });
      const { run } = await client.startWorkflow({ agentfile: readFileSync(AGENTFILE, 'utf8') });
      await page.goto(`${workflows.url}/#/workflows/${run}`);
      await page.getByRole('button', { name: 'Approve' }).waitFor();
      await page.locator('.goal .context-document summary').first().click();
      await page.locator('.goal .context-document pre').first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });
  },
);
