import { listeningUrl, type RunningCommand } from '@agentstep/cli/testing';
import type { Browser, Page } from 'playwright-core';
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
import { type ChatPageServer, serveChatPage } from './use-chat-page/serve-chat-page.js';

const TENANT = 'ann';
/** How long `expect.poll` waits for the page or the API to show something. */
const UNTIL = { timeout: PAGE_WAIT_MS };

/** Every turn: a thought and an `echo` call, then an answer. */
const TOOL_TURN = [
  `<think>Checking first.</think>${batch(['echo', { text: 'hello' }])}`,
  'Checked: hello.<end>',
];
/**
 * Every turn (with `--approve echo`): a thought and an `echo` call that waits for approval, then a
 * `sleep` of 60 s (the longest a sleep may be), far longer than the test takes to press Stop.
 */
const APPROVAL_TURN = [
  `<think>This needs a yes.</think>${batch(['echo', { text: 'approved' }])}`,
  batch(['sleep', { ms: 60_000, value: 'late' }]),
  'Never said.<end>',
];

/**
 * Every turn: a `sleep` of 20 s, twice the time a turn runs on once its last stream was left
 * (`leaveGraceMs`, 10 s), so a reload that did not reattach would see it cancelled; then an answer.
 */
const LONG_TURN = [batch(['sleep', { ms: 20_000, value: 'slept' }]), 'Woke up.<end>'];

/** A turn of {@link TOOL_TURN} as the page shows it: the user's text, then the answer's parts. */
const toolTurn = (text: string) => [
  { role: 'user', parts: [`text: ${text}`] },
  {
    role: 'assistant',
    parts: ['reasoning: Checking first.', 'tool echo output-available: "hello"', 'text: Checked: hello.'],
  },
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

/** What the page shows of its chat: `useChat`'s status and error, and the messages. */
async function shownChat(page: Page) {
  return {
    status: await page.getByTestId('status').textContent(),
    error: await page.getByTestId('error').textContent(),
    messages: await shownMessages(page),
  };
}

/** Types `text` into the page's box and presses Send: `useChat`'s `sendMessage`. */
async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('input').fill(text);
  await page.getByTestId('send').click();
}

/** `GET /sessions/{id}` of the chat's session, from the test (not the page). */
async function sessionOf(api: string, chat: string) {
  const response = await fetch(`${api}/sessions/${chat}`, { headers: { authorization: `Bearer ${TENANT}` } });
  return (await response.json()) as { lastTurn: { turn: string; status: string } | null };
}

describe.skipIf(chromiumMissing !== undefined)(
  `a React page with \`useChat\` on another origin, against \`agentstep serve --cors\`${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let pages: ChatPageServer;
    let browser: Browser;
    /** The API playing {@link TOOL_TURN}, and the one playing {@link APPROVAL_TURN}. */
    let tools: RunningCommand;
    let approvals: RunningCommand;
    /** The API playing {@link LONG_TURN}. */
    let long: RunningCommand;
    let toolsApi: string;
    let approvalsApi: string;
    let longApi: string;
    beforeAll(async () => {
      [pages, browser] = await Promise.all([serveChatPage(), launchChromium()]);
      tools = serveForPage(TOOL_TURN, pages.origin);
      approvals = serveForPage(APPROVAL_TURN, pages.origin, ['--approve', 'echo']);
      long = serveForPage(LONG_TURN, pages.origin);
      [toolsApi, approvalsApi, longApi] = await Promise.all([
        tools.waitFor(listeningUrl),
        approvals.waitFor(listeningUrl),
        long.waitFor(listeningUrl),
      ]);
    }, START_WAIT_MS);
    afterAll(async () => {
      await browser?.close();
      for (const serving of [tools, approvals, long]) {
        serving?.stop();
        expect(await serving?.exited).toBe(0);
      }
      await pages?.close();
    });

    /** A new page in a context of its own, its uncaught errors printed. */
    async function newChatPage(): Promise<Page> {
      const page = await (await newBrowserContext(browser)).newPage();
      page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
      return page;
    }

    /** Opens the chat page on `api` (`query` adds `chat`, `resume`); resolves with its chat id once it is ready. */
    async function open(page: Page, api: string, query: Record<string, string> = {}): Promise<string> {
      await page.goto(`${pages.origin}/?${new URLSearchParams({ api, tenant: TENANT, ...query })}`);
      await page.getByTestId('status').filter({ hasText: 'ready' }).waitFor();
      return String(await page.getByTestId('chat').textContent());
    }

    it('two turns with tool calls: two assistant messages with reasoning, tool and text parts', async () => {
      const page = await newChatPage();
      await open(page, toolsApi);
      await send(page, 'First');
      await expect
        .poll(() => shownChat(page), UNTIL)
        .toEqual({ status: 'ready', error: '', messages: toolTurn('First') });
      await send(page, 'Second');
      await expect
        .poll(() => shownChat(page), UNTIL)
        .toEqual({ status: 'ready', error: '', messages: [...toolTurn('First'), ...toolTurn('Second')] });
    });

    it('`resume: true` on an idle chat: its stream answers 204, and the history read from /messages shows once', async () => {
      const first = await newChatPage();
      const chat = await open(first, toolsApi);
      await send(first, 'Once');
      await expect
        .poll(() => shownChat(first), UNTIL)
        .toEqual({ status: 'ready', error: '', messages: toolTurn('Once') });
      const page = await newChatPage();
      const resumed = page.waitForResponse(
        (response) => response.url() === `${toolsApi}/chat/${chat}/stream`,
      );
      await open(page, toolsApi, { chat, resume: '' });
      expect((await resumed).status()).toBe(204);
      await expect
        .poll(() => shownChat(page), UNTIL)
        .toEqual({ status: 'ready', error: '', messages: toolTurn('Once') });
    });

    it('an approval request answered with `addToolApprovalResponse`: the call runs and the turn goes on; Stop then cancels the turn', async () => {
      const page = await newChatPage();
      const chat = await open(page, approvalsApi);
      await send(page, 'Go');
      await page.getByTestId('approve').click();
      await expect
        .poll(() => shownChat(page), UNTIL)
        .toEqual({
          status: 'streaming',
          error: '',
          messages: [
            { role: 'user', parts: ['text: Go'] },
            {
              role: 'assistant',
              parts: [
                'reasoning: This needs a yes.',
                'tool echo output-available: "approved"',
                'tool sleep input-available: {"ms":60000,"value":"late"}',
              ],
            },
          ],
        });
      await page.getByTestId('stop').click();
      await expect
        .poll(() => sessionOf(approvalsApi, chat), UNTIL)
        .toMatchObject({ lastTurn: { status: 'cancelled' } });
      await page.getByTestId('status').filter({ hasText: 'ready' }).waitFor();
    });

    it('a reload mid-turn reattaches with `resume: true`: the turn is not cancelled, and its answer reaches the page', async () => {
      const page = await newChatPage();
      const chat = await open(page, longApi);
      await send(page, 'Wait');
      await page.getByText('tool sleep input-available').waitFor();
      const reattached = page.waitForResponse(
        (response) => response.url() === `${longApi}/chat/${chat}/stream`,
      );
      await page.goto(
        `${pages.origin}/?${new URLSearchParams({ api: longApi, tenant: TENANT, chat, resume: '' })}`,
      );
      expect((await reattached).status()).toBe(200);
      await expect
        .poll(() => sessionOf(longApi, chat), UNTIL)
        .toMatchObject({ lastTurn: { status: 'done' } });
      await page.getByText('text: Woke up.').waitFor();
    });
  },
);
