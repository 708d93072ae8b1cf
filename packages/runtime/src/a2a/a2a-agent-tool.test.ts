import type { IncomingHttpHeaders } from 'node:http';
import { Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus } from '@a2a-js/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecretLookup } from '../mcp/resolve-headers.js';
import { type A2aTestRequest, startA2aTestServer } from '../testing/a2a-test-server.js';
import { runTool } from '../tools/run-tool.js';
import type { A2aAgentSpec } from './a2a-agent-spec.js';
import { a2aAgentTool } from './a2a-agent-tool.js';

/** One request the peer received: its path, its headers, and the message id it carried, if any. */
interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  messageId?: string;
}

/** A message `hold` on its way: the peer has it (`entered`), and names no task until released. */
interface Hold {
  entered: Promise<void>;
  release(): void;
  /** What the executor does: says it entered, and waits to be released. */
  pass(): Promise<void>;
}

function newHold(): Hold {
  let enter = () => {};
  let release = () => {};
  const entered = new Promise<void>((resolve) => {
    enter = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    entered,
    release: () => release(),
    pass: () => {
      enter();
      return released;
    },
  };
}

/** An `@a2a-js/sdk` server on port 0, over JSON-RPC, and what it saw. */
interface Peer {
  url: string;
  seen: Seen[];
  /** The tasks its executor was asked to cancel. */
  canceled: string[];
  /** The hold of the next `hold` message. */
  nextHold(): Hold;
  close(): Promise<void>;
}

const status = (taskId: string, contextId: string, state: string, text?: string) =>
  TaskStatusUpdateEvent.fromJSON({
    taskId,
    contextId,
    status: {
      state,
      ...(text === undefined
        ? {}
        : { message: { messageId: `${taskId}/${state}`, role: 'ROLE_AGENT', parts: [{ text }] } }),
    },
  });

/**
 * What the peer does with a message, by its text: `ask` waits for input, `fail` fails, `wait`
 * works until it is canceled, `hold` names no task until its hold is released, `reply` answers
 * with a message and no task; anything else completes with the artifact `answer`, `echo: TEXT`.
 */
function executorOf(canceled: string[], holds: Hold[]): AgentExecutor {
  const cancels = new Map<string, () => void>();
  return {
    async execute(context, bus: ExecutionEventBus) {
      const { taskId, contextId, userMessage } = context;
      const text = userMessage.parts[0]?.content?.$case === 'text' ? userMessage.parts[0].content.value : '';
      if (text === 'hold') await holds.shift()?.pass();
      if (text === 'reply') {
        const reply = { messageId: 'r-1', role: 'ROLE_AGENT', contextId, parts: [{ text: 'at once' }] };
        bus.publish(AgentEvent.message(Message.fromJSON(reply)));
        return;
      }
      bus.publish(
        AgentEvent.task(Task.fromJSON({ id: taskId, contextId, status: { state: 'TASK_STATE_WORKING' } })),
      );
      if (text === 'ask')
        return bus.publish(
          AgentEvent.statusUpdate(status(taskId, contextId, 'TASK_STATE_INPUT_REQUIRED', 'Which account?')),
        );
      if (text === 'fail')
        return bus.publish(
          AgentEvent.statusUpdate(status(taskId, contextId, 'TASK_STATE_FAILED', 'The ledger is closed.')),
        );
      if (text === 'wait') return new Promise((resolve) => cancels.set(taskId, resolve));
      const artifact = { artifactId: 'a-1', name: 'answer', parts: [{ text: `echo: ${text}` }] };
      bus.publish(
        AgentEvent.artifactUpdate(TaskArtifactUpdateEvent.fromJSON({ taskId, contextId, artifact })),
      );
      bus.publish(AgentEvent.statusUpdate(status(taskId, contextId, 'TASK_STATE_COMPLETED')));
    },
    async cancelTask(taskId, bus) {
      canceled.push(taskId);
      bus.publish(AgentEvent.statusUpdate(status(taskId, '', 'TASK_STATE_CANCELED')));
      cancels.get(taskId)?.();
    },
  };
}

/** Starts a peer: `@a2a-js/sdk`'s server running {@link executorOf}, recording what it receives. */
async function startPeer({
  streaming = true,
  rpcBase,
}: {
  streaming?: boolean;
  rpcBase?: string;
} = {}): Promise<Peer> {
  const seen: Seen[] = [];
  const canceled: string[] = [];
  const holds: Hold[] = [];
  const onRequest = ({ path, headers, body }: A2aTestRequest) => {
    const messageId = body === '' ? undefined : JSON.parse(body).params?.message?.messageId;
    seen.push({ path, headers, ...(messageId ? { messageId } : {}) });
  };
  const server = await startA2aTestServer(executorOf(canceled, holds), {
    streaming,
    onRequest,
    ...(rpcBase ? { rpcBase } : {}),
  });
  const nextHold = () => {
    const hold = newHold();
    holds.push(hold);
    return hold;
  };
  return { ...server, seen, canceled, nextHold };
}

const noSecrets: SecretLookup = async () => undefined;

/** Runs one call of the peer's tool as the tools step does: its outcome. */
function send(spec: A2aAgentSpec, args: Record<string, unknown>, secretOf = noSecrets) {
  return runTool(a2aAgentTool(spec, { secretOf }), args, {
    session: 's-1',
    turn: 't-1',
    batch: 'b-1',
    position: 0,
  });
}

describe('a2aAgentTool', () => {
  let peer: Peer;
  let blocking: Peer;
  beforeAll(async () => {
    [peer, blocking] = await Promise.all([startPeer(), startPeer({ streaming: false })]);
  });
  afterAll(async () => {
    await Promise.all([peer.close(), blocking.close()]);
  });

  it('is NAME__send, described by its spec, bounded by its time limit and the cancel grace', () => {
    const tool = a2aAgentTool(
      {
        name: 'ledger',
        url: 'https://ledger.example.com/a2a',
        description: 'Keeps the books.',
        timeoutMs: 5_000,
      },
      { secretOf: noSecrets },
    );
    expect(tool).toMatchObject({
      name: 'ledger__send',
      idempotent: false,
      sequential: false,
      timeoutMs: 15_000,
    });
    expect(tool.description).toBe(
      'Keeps the books. Sends a message to the remote agent ledger (A2A, at https://ledger.example.com) and returns its answer as { answer, task, context }: pass context again to go on with that conversation.',
    );
    expect(tool.input.safeParse({ message: 'hi', context: 'c-1' }).success).toBe(true);
    expect(tool.input.safeParse({ message: '' }).success).toBe(false);
  });

  it('answers with the completed task’s answer, its id and context; the message id is the call’s idempotency key', async () => {
    const outcome = await send({ name: 'ledger', url: peer.url }, { message: 'balance?' });
    expect(outcome).toEqual({
      tool: 'ledger__send',
      status: 'success',
      content: { answer: 'echo: balance?', task: expect.any(String), context: expect.any(String) },
    });
    expect(peer.seen.filter(({ messageId }) => messageId).map(({ messageId }) => messageId)).toContain(
      's-1:b-1:0',
    );
  });

  it('goes on with a remote conversation given as context', async () => {
    const first = await send({ name: 'ledger', url: peer.url }, { message: 'one' });
    const { context } = first.content as { context: string };
    const second = await send({ name: 'ledger', url: peer.url }, { message: 'two', context });
    expect(second.content).toMatchObject({ answer: 'echo: two', context });
  });

  it('sends a blocking SendMessage to an agent whose card says it does not stream, and takes an answer given at once', async () => {
    const outcome = await send({ name: 'ledger', url: blocking.url }, { message: 'balance?' });
    expect(outcome.content).toMatchObject({ answer: 'echo: balance?' });
    expect(await send({ name: 'ledger', url: peer.url }, { message: 'reply' })).toMatchObject({
      status: 'success',
      content: { answer: 'at once', context: expect.any(String) },
    });
  });

  it('fails, saying what it asked, when the remote task waits for input', async () => {
    const outcome = await send({ name: 'ledger', url: peer.url }, { message: 'ask' });
    expect(outcome.status).toBe('failure');
    expect(outcome.content).toMatch(
      /^A2A agent ledger waits for input on its task \S+ \(TASK_STATE_INPUT_REQUIRED\), which this call cannot give; it asked: Which account\?$/,
    );
  });

  it('fails with the remote message when the remote task fails', async () => {
    const outcome = await send({ name: 'ledger', url: peer.url }, { message: 'fail' });
    expect(outcome).toMatchObject({ status: 'failure' });
    expect(outcome.content).toMatch(
      /^A2A agent ledger's task \S+ ended TASK_STATE_FAILED: The ledger is closed\.$/,
    );
  });

  it('gives a task up at its time limit and has the remote agent cancel it', async () => {
    const before = peer.canceled.length;
    const outcome = await send({ name: 'ledger', url: peer.url, timeoutMs: 1_000 }, { message: 'wait' });
    const canceled = peer.canceled.slice(before);
    expect(canceled).toHaveLength(1);
    expect(outcome).toEqual({
      tool: 'ledger__send',
      status: 'failure',
      content: `outcome unknown: A2A agent ledger did not finish within 1 s; its task ${canceled[0]} was asked to cancel, and is TASK_STATE_CANCELED.`,
    });
  });

  it('says a call stopped before the remote agent named its task could not cancel it, and one stopped sooner sent nothing', async () => {
    const tool = a2aAgentTool({ name: 'ledger', url: peer.url }, { secretOf: noSecrets });
    const context = { session: 's', turn: 't', batch: 'b', position: 0, idempotencyKey: 's:b:0' };
    const hold = peer.nextHold();
    const stopping = new AbortController();
    const call = tool.handler({ message: 'hold' }, { ...context, signal: stopping.signal });
    await hold.entered;
    stopping.abort();
    await expect(call).rejects.toThrow(
      'outcome unknown: A2A agent ledger was stopped by its caller, before it named its task: a task it may have started was not canceled.',
    );
    hold.release();
    const sooner = tool.handler({ message: 'hi' }, { ...context, signal: AbortSignal.abort() });
    await expect(sooner).rejects.toThrow(
      'A2A agent ledger was stopped by its caller before its card was read: nothing was sent.',
    );
  });

  it('sends the headers, their secrets read as it sends, with every request (the card’s too)', async () => {
    const headers = { Authorization: { secret: 'LEDGER_TOKEN', prefix: 'Bearer ' }, 'X-Team': 'books' };
    const secretOf: SecretLookup = async (name) => (name === 'LEDGER_TOKEN' ? 'tok-1' : undefined);
    const before = peer.seen.length;
    expect(await send({ name: 'ledger', url: peer.url, headers }, { message: 'hi' }, secretOf)).toMatchObject(
      {
        status: 'success',
      },
    );
    const sent = peer.seen.slice(before);
    expect(sent.map(({ path }) => path)).toEqual(['/.well-known/agent-card.json', '/rpc']);
    for (const { headers: received } of sent)
      expect(received).toMatchObject({
        authorization: 'Bearer tok-1',
        'x-team': 'books',
        'a2a-version': '1.0',
      });
  });

  it('fails naming the agent when it cannot be reached, or a secret its headers name has no value', async () => {
    const gone = await startPeer();
    await gone.close();
    const unreachable = await send({ name: 'ghost', url: gone.url }, { message: 'hi' });
    expect(unreachable).toMatchObject({ status: 'failure' });
    expect(unreachable.content).toMatch(
      new RegExp(
        `^A2A agent ghost \\(${gone.url}\\) could not be reached: fetch failed \\(.*ECONNREFUSED.*\\)$`,
      ),
    );
    const headers = { Authorization: { secret: 'MISSING_TOKEN' } };
    const unset = await send({ name: 'ledger', url: peer.url, headers }, { message: 'hi' });
    expect(unset.content).toMatch(
      /^A2A agent ledger \(http:\/\/127\.0\.0\.1:\d+\) could not be reached: .*"MISSING_TOKEN"/,
    );
  });

  it('sends nothing to an interface its card names on another origin: the headers go to the agent’s own', async () => {
    const elsewhere = await startPeer({ rpcBase: 'http://127.0.0.2:9' });
    const headers = { Authorization: 'Bearer tok-1' };
    try {
      const refused = await send({ name: 'ledger', url: elsewhere.url, headers }, { message: 'hi' });
      expect(refused.status).toBe('failure');
      expect(refused.content).toContain(
        `names an interface at http://127.0.0.2:9: its headers go to ${elsewhere.url} only, so nothing was sent`,
      );
      expect(elsewhere.seen.map(({ path }) => path)).toEqual(['/.well-known/agent-card.json']);
    } finally {
      await elsewhere.close();
    }
  });
});
