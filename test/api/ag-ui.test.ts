import { randomUUID } from 'node:crypto';
import { type BaseEvent, HttpAgent, type Message, type RunFinishedEvent } from '@ag-ui/client';
import { openAIStream, startRecordingServer } from '@agentstep/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPACTION_SUMMARY, compactingLog } from '../support/compacting-log.js';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { newProject, serveInProcess, serveScriptInProcess, serveScriptOn } from '../support/in-process.js';
import { type ApiEvent, eventsOnce, type Served } from '../support/serve-client.js';

/** A turn that thinks, calls two tools (one fails), then answers. */
const TOOLS_TURN = [
  `<think>Two checks at once.</think>${batch(['echo', { text: 'hello' }], ['fail', { message: 'boom' }])}`,
  'Both ran: one said hello, one failed.<end>',
];

/** A turn whose one call waits for approval (`--approve echo`), then answers. */
const APPROVAL_TURN = [batch(['echo', { text: 'one' }]), 'Done.<end>'];

/** A turn whose call sleeps long enough to be cancelled. */
const SLOW_TURN = [batch(['sleep', { ms: 60_000, value: 'late' }]), 'Never.<end>'];

const roles = (messages: Message[]) => messages.map((message) => message.role);

/** The events of a run of {@link TOOLS_TURN}, in order. */
const TOOLS_TURN_EVENTS = [
  'RUN_STARTED',
  'STEP_STARTED',
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT',
  'REASONING_MESSAGE_END',
  'REASONING_END',
  'TOOL_CALL_START',
  'TOOL_CALL_ARGS',
  'TOOL_CALL_END',
  'TOOL_CALL_START',
  'TOOL_CALL_ARGS',
  'TOOL_CALL_END',
  'TOOL_CALL_RESULT',
  'TOOL_CALL_RESULT',
  'STEP_FINISHED',
  'STEP_STARTED',
  'TEXT_MESSAGE_START',
  'TEXT_MESSAGE_CONTENT',
  'TEXT_MESSAGE_END',
  'STEP_FINISHED',
  'RUN_FINISHED',
];

/** An agent's messages once it ran {@link TOOLS_TURN}. */
function expectToolsTurnMessages(messages: Message[]): void {
  expect(roles(messages)).toEqual(['user', 'reasoning', 'assistant', 'tool', 'tool', 'assistant']);
  const [, reasoning, calls, echoed, failed, answer] = messages;
  expect(reasoning).toMatchObject({ content: 'Two checks at once.' });
  expect(calls).toMatchObject({
    toolCalls: [
      { type: 'function', function: { name: 'echo', arguments: '{"text":"hello"}' } },
      { type: 'function', function: { name: 'fail', arguments: '{"message":"boom"}' } },
    ],
  });
  expect(echoed).toMatchObject({ content: 'hello' });
  expect(failed).toMatchObject({ content: 'boom' });
  expect(answer).toMatchObject({ content: 'Both ran: one said hello, one failed.' });
}

/** `@ag-ui/client`'s own agent on `POST /ag-ui` as `tenant`, its thread a new session. */
function agentOn(served: Served, text: string, tenant = 'frank') {
  return new HttpAgent({
    url: `${served.url}/ag-ui`,
    headers: { authorization: `Bearer ${tenant}` },
    threadId: `thread-${randomUUID()}`,
    initialMessages: [{ id: 'user-1', role: 'user', content: text }],
  });
}

/** Runs `agent` once; resolves with the events it received and how its run finished. */
async function runOnce(agent: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0] = {}) {
  const events: BaseEvent[] = [];
  let finished: RunFinishedEvent | undefined;
  await agent.runAgent(parameters, {
    onEvent: ({ event }) => {
      events.push(event);
    },
    onRunFinishedEvent: ({ event }) => {
      finished = event;
    },
  });
  return { types: events.map((event) => event.type), events, finished };
}

describe.skipIf(dynamoEndpoint === '')("POST /ag-ui with @ag-ui/client's HttpAgent", () => {
  let served: Served;
  let approving: Served;
  beforeAll(async () => {
    [served, approving] = await Promise.all([
      serveScriptInProcess('ag-ui', TOOLS_TURN),
      serveScriptInProcess('ag-ui-approve', APPROVAL_TURN, ['--approve', 'echo']),
    ]);
  });
  afterAll(async () => {
    expect(await served?.stop()).toBe(0);
    expect(await approving?.stop()).toBe(0);
  });

  it('runs a tool-using turn: the expected events in order, and the agent’s messages', async () => {
    const agent = agentOn(served, 'Check');
    const { types, finished } = await runOnce(agent, { runId: 'run-1' });
    expect(types).toEqual(TOOLS_TURN_EVENTS);
    expect(finished?.outcome).toEqual({ type: 'success' });
    expectToolsTurnMessages(agent.messages);
  });

  it('runs a turn compacted between its steps: the compaction a CUSTOM event, the rest as before', async () => {
    const project = { ...newProject('ag-ui-compacted'), decorateLog: compactingLog };
    const compacting = await serveScriptOn(project, 'ag-ui-compacted', TOOLS_TURN);
    try {
      const agent = agentOn(compacting, 'Check');
      const { types, events, finished } = await runOnce(agent);
      expect(types.filter((type) => type !== 'CUSTOM')).toEqual(TOOLS_TURN_EVENTS);
      expect(events.filter(({ type }) => type === 'CUSTOM')).toEqual([
        expect.objectContaining({
          name: 'compacted',
          value: expect.objectContaining({
            summary: COMPACTION_SUMMARY,
            model: 'scripted',
            strategy: 'summarize',
          }),
        }),
      ]);
      expect(finished?.outcome).toEqual({ type: 'success' });
      expectToolsTurnMessages(agent.messages);
    } finally {
      expect(await compacting.stop()).toBe(0);
    }
  });

  it('ends the run at a call waiting for approval as an interrupt; the next run resumes it, the call runs and the turn finishes', async () => {
    const agent = agentOn(approving, 'Echo');
    const interrupted = await runOnce(agent);
    const outcome = interrupted.finished?.outcome;
    expect(outcome?.type).toBe('interrupt');
    const interrupts = outcome?.type === 'interrupt' ? outcome.interrupts : [];
    expect(interrupts).toEqual([
      expect.objectContaining({
        reason: 'tool_approval',
        toolCallId: interrupts[0]?.id,
        metadata: { tool: 'echo', args: { text: 'one' } },
      }),
    ]);
    const [waiting] = interrupts;
    const resumed = await runOnce(agent, {
      resume: [{ interruptId: String(waiting?.id), status: 'resolved', payload: { args: { text: 'uno' } } }],
    });
    expect(resumed.types).toEqual([
      'RUN_STARTED',
      'STEP_STARTED',
      'TOOL_CALL_RESULT',
      'STEP_FINISHED',
      'STEP_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    expect(resumed.finished?.outcome).toEqual({ type: 'success' });
    expect(agent.messages.at(-2)).toMatchObject({ role: 'tool', toolCallId: waiting?.id, content: 'uno' });
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Done.' });
  });

  it('a client that aborts its run cancels the turn', async () => {
    const slow = await serveScriptInProcess('ag-ui-slow', SLOW_TURN);
    try {
      const agent = agentOn(slow, 'Sleep');
      const run = agent.runAgent(
        {},
        {
          onToolCallEndEvent: () => {
            agent.abortRun();
          },
        },
      );
      await run;
      const session = agent.threadId;
      const ended = (events: ApiEvent[]) => events.some((event) => event.type === 'turn_end');
      const events = await eventsOnce(slow.url, 'frank', session, ended);
      expect(events.find((event) => event.type === 'turn_end')?.payload).toMatchObject({
        status: 'cancelled',
      });
    } finally {
      expect(await slow.stop()).toBe(0);
    }
  });
});

/** A settle-once signal. */
function signal(): { given: Promise<void>; give: () => void } {
  let give = () => {};
  const given = new Promise<void>((settle) => {
    give = settle;
  });
  return { given, give };
}

describe.skipIf(dynamoEndpoint === '')('POST /ag-ui while the model streams', () => {
  it('sends the answer as content deltas as the model writes it, each piece once', async () => {
    const chunks = Array.from({ length: 10 }, (_, index) =>
      index < 9 ? `word${index} ` : `word${index}.<end>`,
    );
    const runStarted = signal();
    const textSeen = signal();
    // The model starts once the run has started, and holds its last chunk until the client has
    // shown text: text that reaches the client first streamed, by construction.
    const model = await startRecordingServer((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const frames = openAIStream(chunks).split(/(?<=\n\n)/);
      void (async () => {
        await runStarted.given;
        for (const [index, frame] of frames.entries()) {
          if (index === chunks.length - 1) await textSeen.given;
          response.write(frame);
        }
        response.end();
      })();
    });
    const served = await serveInProcess(newProject('ag-ui-live'), [
      ...['--auth', 'dev', '--model', 'openai:m', '--base-url', model.url],
    ]);
    try {
      const agent = agentOn(served, 'Talk');
      const deltas: string[] = [];
      await agent.runAgent(
        {},
        {
          onRunStartedEvent: () => runStarted.give(),
          onTextMessageContentEvent: ({ event }) => {
            deltas.push(event.delta);
            textSeen.give();
          },
        },
      );
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe(chunks.join('').replace('<end>', ''));
      expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: deltas.join('') });
    } finally {
      expect(await served.stop()).toBe(0);
      await model.close();
    }
  });
});
