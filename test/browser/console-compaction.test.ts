import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storedSession } from '@agentstep/api';
import { AgentStepClient } from '@agentstep/client';
import { JavaMissingError, openSharedDynamoDbLocal, type SharedDynamoDbLocal } from '@agentstep/local';
import type { PersistedEvent } from '@agentstep/protocol';
import type { NewEvent } from '@agentstep/runtime';
import { DynamoEventLog } from '@agentstep/runtime/dynamo';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe-violations.js';
import { chromiumMissing, launchChromium, START_WAIT_MS, signedInContext } from '../support/chromium.js';
import { batch } from '../support/harness.js';
import { eventsOnce, type Served, startServe } from '../support/serve-client.js';

/** Every turn the server runs: a thought and an `echo`, then an answer. */
const SCRIPT = [`<think>One check.</think>${batch(['echo', { text: 'hello' }])}`, 'It said hello.<end>'];
/** The table `agentstep serve` keeps a project's log in, on the folder's DynamoDB Local. */
const TABLE = 'agentstep-events';
const SUMMARY = 'The user asked for **one check**; `echo` said hello.';
const SCREENSHOTS = 'test-artifacts/console';
const VIEWPORT = { width: 1200, height: 800 };
const TENANT = 'ann';
const at = Date.now() / 1000;

/**
 * A second turn as a model step that compacts logs it (decision 0035), written by hand into the
 * server's store: one model step calls `echo`, then the next compacts events 1–SEQ (the first turn,
 * all of it) before it answers.
 */
function compactedTurn(turn: string, upToSeq: number): Array<{ key: string; events: NewEvent[] }> {
  const call = {
    type: 'call',
    content: '{"name": "echo", "args": {"text": "again"}}',
    timestamp: at,
  } as const;
  const result: PersistedEvent = {
    type: 'result',
    content: JSON.stringify([{ tool: 'echo', status: 'success', content: 'again' }]),
    payload: { tools_executed: 1, success_count: 1, failure_count: 0 },
    timestamp: at,
  };
  const compacted: PersistedEvent = {
    type: 'compacted',
    content: `Compacted the context before step ${turn}.2: events 1–${upToSeq} summarized by openai:gpt-4o.`,
    timestamp: at,
    payload: {
      upToSeq,
      summary: SUMMARY,
      tokensBefore: 7950,
      tokensAfter: 1830,
      model: 'openai:gpt-4o',
      strategy: 'summarize',
      turns: 1,
      calls: 1,
    },
  };
  const end: PersistedEvent = {
    type: 'turn_end',
    content: 'The turn finished.',
    timestamp: at,
    payload: { turn, status: 'done' },
  };
  return [
    { key: 'user', events: [{ event: { type: 'user', content: 'Once more', timestamp: at } }] },
    { key: 'step-1', events: [{ batch: `${turn}.1`, position: 0, event: call }] },
    { key: 'results-1', events: [{ batch: `${turn}.1`, event: result }] },
    { key: 'compaction', events: [{ event: compacted }] },
    {
      key: 'step-2',
      events: [{ batch: `${turn}.2`, event: { type: 'respond', content: 'Again.', timestamp: at } }],
    },
    { key: 'end', events: [{ event: end }] },
  ];
}

describe.skipIf(chromiumMissing !== undefined)(
  `a compaction in the web console in headless Chromium${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-console-compaction-'));
    let store: SharedDynamoDbLocal | undefined;
    let served: Served | undefined;
    let browser: Browser;
    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      // The server's own store, the folder's DynamoDB Local, which this test writes to as well.
      store = await openSharedDynamoDbLocal(join(cwd, '.agentstep')).catch((error: unknown) => {
        if (error instanceof JavaMissingError) return undefined;
        throw error;
      });
      if (store === undefined) return;
      writeFileSync(join(cwd, 'script.json'), JSON.stringify(SCRIPT));
      [served, browser] = await Promise.all([
        startServe(['--auth', 'dev', '--script', 'script.json'], cwd),
        launchChromium(),
      ]);
    }, START_WAIT_MS);
    afterAll(async () => {
      await browser?.close();
      await served?.stop();
      await store?.stop();
    });

    /**
     * A session of two turns, the second compacted (all of the first) between its steps, open in a
     * page as {@link TENANT}; and the seq the compaction goes up to.
     */
    async function compactedSession(
      url: string,
      shared: SharedDynamoDbLocal,
    ): Promise<{ page: Page; upToSeq: number }> {
      const { session, turn } = await new AgentStepClient({ baseUrl: url, token: TENANT }).start({
        message: 'Check once',
      });
      const first = await eventsOnce(url, TENANT, session, (events) =>
        events.some(({ type }) => type === 'turn_end'),
      );
      const log = new DynamoEventLog({
        tableName: TABLE,
        client: DynamoDBDocumentClient.from(shared.client),
      });
      const stored = storedSession(TENANT, session);
      const second = `${turn}-compacted`;
      await log.acquireTurn(stored, second);
      for (const { key, events } of compactedTurn(second, first.length))
        await log.append({ session: stored, turn: second, key, events, release: key === 'end' });
      const context = await signedInContext(browser, TENANT, { viewport: VIEWPORT });
      const page = await context.newPage();
      await page.goto(`${url}/#/sessions/${session}`);
      await expect.poll(() => page.locator('.item.turn-end').count()).toBe(2);
      return { page, upToSeq: first.length };
    }

    it('shows it as a closed fold saying what it summarized and the tokens, which opens on the summary', async (test) => {
      if (served === undefined || store === undefined) return test.skip('Java is missing: no DynamoDB Local');
      const { page, upToSeq } = await compactedSession(served.url, store);
      const fold = page.locator('details.item.compacted');
      expect(await fold.count()).toBe(1);
      const summary = fold.locator('summary');
      expect(await summary.textContent()).toBe(
        `${upToSeq} earlier events summarized by openai:gpt-4o · 7,950 → 1,830 tokens`,
      );
      expect(await fold.getAttribute('open')).toBeNull();
      expect(await fold.locator('.markdown').isVisible()).toBe(false);
      // In its place: after the results of the step before it, ahead of the answer of the step it came with.
      const logged = await page.$$eval('[data-seq]', (elements) =>
        elements.map((element) => element.className),
      );
      const compactedAt = logged.findIndex((name) => name.includes('compacted'));
      expect(logged[compactedAt + 1]).toContain('respond');
      await page.screenshot({ path: `${SCREENSHOTS}/compacted-closed.png`, fullPage: true });
      await summary.click();
      expect(await fold.getAttribute('open')).toBe('');
      const text = fold.locator('.markdown');
      expect(await text.isVisible()).toBe(true);
      expect(await text.locator('strong').textContent()).toBe('one check');
      expect(await text.textContent()).toBe('The user asked for one check; echo said hello.');
      await page.screenshot({ path: `${SCREENSHOTS}/compacted-open.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });
  },
);
