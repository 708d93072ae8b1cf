import { randomUUID } from 'node:crypto';
import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPACTION_SUMMARY, compactingLog } from '../support/compacting-log.js';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { newProject, serveScriptInProcess, serveScriptOn } from '../support/in-process.js';
import { call, type Served } from '../support/serve-client.js';

/** The chat state `useChat` keeps in React, kept in an array: how `ai` runs outside a framework. */
class ArrayChatState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = this.messages.map((kept, at) => (at === index ? message : kept));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** The SDK's own chat, unmodified, on its array state. */
class Chat extends AbstractChat<UIMessage> {
  constructor(init: ChatInit<UIMessage>) {
    super({ ...init, state: new ArrayChatState() });
  }

  get current(): UIMessage[] {
    return this.state.messages;
  }
}

/** A chat of `tenant` with the server, through the SDK's stock transport. */
function chatWith(served: Served, tenant: string, init: ChatInit<UIMessage> = {}): Chat {
  const transport = new DefaultChatTransport({
    api: `${served.url}/chat`,
    headers: { authorization: `Bearer ${tenant}` },
  });
  return new Chat({ id: `chat-${randomUUID()}`, transport, ...init });
}

/** A message as the server's log and the client's stream must agree on it: ids of streamed text parts aside. */
function canonical(message: UIMessage | undefined) {
  const parts = JSON.parse(JSON.stringify(message?.parts ?? [])) as Array<Record<string, unknown>>;
  return parts.map(({ id: _, ...part }) => part);
}

/** How long a condition may take to come true on a busy machine. */
const WAIT = { timeout: 20_000 };

const lastTurnOf = async (served: Served, tenant: string, session: string) =>
  (await call(`${served.url}/sessions/${session}`, tenant)).body.lastTurn;

describe.skipIf(dynamoEndpoint === '')(
  "the AI SDK's DefaultChatTransport and chat against POST /chat",
  () => {
    describe('turns with tool calls', () => {
      let served: Served;
      beforeAll(async () => {
        served = await serveScriptInProcess('chat', [
          `<think>One check.</think>${batch(['echo', { text: 'hello' }])}`,
          'It said hello.<end>',
        ]);
      });
      afterAll(async () => {
        expect(await served?.stop()).toBe(0);
      });

      it('two turns give two assistant messages with reasoning, tool and text parts, as GET /chat/{id}/messages has them', async () => {
        const chat = chatWith(served, 'ann');
        await chat.sendMessage({ text: 'First' });
        await chat.sendMessage({ text: 'Second' });
        expect(chat.status).toBe('ready');
        expect(chat.current.map(({ role }) => role)).toEqual(['user', 'assistant', 'user', 'assistant']);
        const assistants = chat.current.filter(({ role }) => role === 'assistant');
        for (const message of assistants)
          expect(canonical(message)).toEqual([
            { type: 'step-start' },
            { type: 'reasoning', text: 'One check.', state: 'done' },
            expect.objectContaining({
              type: 'dynamic-tool',
              toolName: 'echo',
              state: 'output-available',
              input: { text: 'hello' },
              output: 'hello',
            }),
            { type: 'step-start' },
            { type: 'text', text: 'It said hello.', state: 'done' },
          ]);
        const { status, body } = await call(`${served.url}/chat/${chat.id}/messages`, 'ann');
        expect(status).toBe(200);
        const logged = body as UIMessage[];
        expect(logged.map(({ role }) => role)).toEqual(['user', 'assistant', 'user', 'assistant']);
        expect(logged.filter(({ role }) => role === 'assistant').map(({ id }) => id)).toEqual(
          assistants.map(({ id }) => id),
        );
        expect(logged.map(canonical)).toEqual(chat.current.map(canonical));
        const summary = await call(`${served.url}/sessions/${chat.id}`, 'ann');
        expect(summary.body).toMatchObject({ turns: 2, status: 'idle' });
      });

      it('resumeStream() on an idle chat gets 204 and changes nothing', async () => {
        const chat = chatWith(served, 'ann');
        await chat.sendMessage({ text: 'Once' });
        const before = structuredClone(chat.current);
        await chat.resumeStream();
        expect(chat.status).toBe('ready');
        expect(chat.current).toEqual(before);
        const resumed = await fetch(`${served.url}/chat/${chat.id}/stream`, {
          headers: { authorization: 'Bearer ann' },
        });
        expect(resumed.status).toBe(204);
      });
    });

    describe('a turn whose context was compacted between its steps', () => {
      let served: Served;
      beforeAll(async () => {
        const project = { ...newProject('chat-compacted'), decorateLog: compactingLog };
        served = await serveScriptOn(project, 'chat-compacted', [
          `<think>One check.</think>${batch(['echo', { text: 'hello' }])}`,
          'It said hello.<end>',
        ]);
      });
      afterAll(async () => {
        expect(await served?.stop()).toBe(0);
      });

      it('gives the same messages, with the compaction handed to onData, never to a message', async () => {
        const data: unknown[] = [];
        const chat = chatWith(served, 'dot', { onData: (part) => data.push(part) });
        await chat.sendMessage({ text: 'First' });
        await chat.sendMessage({ text: 'Second' });
        expect(chat.status).toBe('ready');
        expect(chat.error).toBeUndefined();
        expect(chat.current.map(({ role }) => role)).toEqual(['user', 'assistant', 'user', 'assistant']);
        for (const message of chat.current.filter(({ role }) => role === 'assistant'))
          expect(canonical(message)).toEqual([
            { type: 'step-start' },
            { type: 'reasoning', text: 'One check.', state: 'done' },
            expect.objectContaining({ type: 'dynamic-tool', toolName: 'echo', state: 'output-available' }),
            { type: 'step-start' },
            { type: 'text', text: 'It said hello.', state: 'done' },
          ]);
        expect(data).toEqual([
          expect.objectContaining({
            type: 'data-compacted',
            data: expect.objectContaining({
              summary: COMPACTION_SUMMARY,
              tokensBefore: 7950,
              tokensAfter: 1830,
            }),
            transient: true,
          }),
          expect.objectContaining({ type: 'data-compacted', transient: true }),
        ]);
        const logged = (await call(`${served.url}/chat/${chat.id}/messages`, 'dot')).body as UIMessage[];
        expect(logged.map(canonical)).toEqual(chat.current.map(canonical));
      });
    });

    describe('approvals', () => {
      let served: Served;
      beforeAll(async () => {
        served = await serveScriptInProcess(
          'chat-approvals',
          [batch(['echo', { text: 'approved text' }]), 'Echoed.<end>'],
          ['--approve', 'echo'],
        );
      });
      afterAll(async () => {
        expect(await served?.stop()).toBe(0);
      });

      it("an approval request answered with the SDK's addToolApprovalResponse runs the call and finishes the turn", async () => {
        const chat = chatWith(served, 'bea', {
          sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
        });
        await chat.sendMessage({ text: 'Echo it' });
        const waiting = chat.current.at(-1)?.parts.find((part) => part.type === 'dynamic-tool');
        expect(waiting).toMatchObject({
          state: 'approval-requested',
          toolName: 'echo',
          approval: { id: expect.any(String) },
        });
        const { status } = (await call(`${served.url}/sessions/${chat.id}`, 'bea')).body;
        expect(status).toBe('waiting');
        if (waiting?.type !== 'dynamic-tool' || waiting.state !== 'approval-requested')
          throw new Error('no approval');
        await chat.addToolApprovalResponse({ id: waiting.approval.id, approved: true });
        await expect.poll(() => lastTurnOf(served, 'bea', chat.id), WAIT).toMatchObject({ status: 'done' });
        await expect
          .poll(() => chat.status === 'ready' && chat.current.at(-1)?.parts.at(-1), WAIT)
          .toMatchObject({ type: 'text', text: 'Echoed.', state: 'done' });
        expect(chat.current).toHaveLength(2);
        expect(chat.current[1]?.parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({
          state: 'output-available',
          output: 'approved text',
          approval: { id: waiting.approval.id, approved: true },
        });
        const logged = (await call(`${served.url}/chat/${chat.id}/messages`, 'bea')).body as UIMessage[];
        expect(canonical(logged[1])).toEqual(canonical(chat.current[1]));
      });
    });

    describe('stop', () => {
      let served: Served;
      beforeAll(async () => {
        // The call sleeps the longest a sleep may (60 s), far longer than the test: the turn runs until stopped.
        served = await serveScriptInProcess('chat-stop', [
          batch(['sleep', { ms: 60_000, value: 'late' }]),
          'Done.<end>',
        ]);
      });
      afterAll(async () => {
        expect(await served?.stop()).toBe(0);
      });

      it('chat.stop() during a turn aborts the POST, and the turn ends cancelled', async () => {
        const chat = chatWith(served, 'cid');
        const sent = chat.sendMessage({ text: 'Sleep' });
        await expect
          .poll(() => chat.current.at(-1)?.parts.find((part) => part.type === 'dynamic-tool'), WAIT)
          .toMatchObject({ toolName: 'sleep', state: 'input-available' });
        await chat.stop();
        await sent;
        await expect
          .poll(() => lastTurnOf(served, 'cid', chat.id), WAIT)
          .toMatchObject({ status: 'cancelled' });
        const turn = chat.current.at(-1)?.id;
        expect(await lastTurnOf(served, 'cid', chat.id)).toEqual({ turn, status: 'cancelled' });
      });
    });
  },
);
