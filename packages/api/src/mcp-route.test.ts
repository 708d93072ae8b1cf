import type { TurnEndStatus } from '@agentstep/protocol';
import {
  type ExecutionStarter,
  endTurn,
  eventLogWith,
  modelStep,
  ScriptedModel,
  StoreUnavailableError,
  startTurn,
} from '@agentstep/runtime';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateTaskResultSchema,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { ApiDeps } from './api-deps.js';
import { createApi } from './create-api.js';
import { MAX_PUBLIC_SESSION_LENGTH } from './ids.js';
import { LogChanges } from './log-changes.js';
import { MAX_ASK_MESSAGE_BYTES, MAX_MCP_BODY_BYTES } from './mcp-ask.js';
import { askEventId } from './mcp-ask-stream.js';
import { startSessionTurn } from './start-session-turn.js';
import { bearerNameTenant, storedSession } from './tenants.js';
import { inMemoryApiDeps, mcpClientOf } from './testing/index.js';

/**
 * The API in memory whose every turn answers `Hi.` in one model step, then ends with `status`
 * (`done` unless a test says otherwise), as soon as it starts; with `held`, a turn waits in
 * `started` until the test calls `answer` with it.
 */
function api(overrides: (deps: ApiDeps) => Partial<ApiDeps> = () => ({})) {
  const ending: { status: TurnEndStatus; held: boolean } = { status: 'done', held: false };
  const started: Array<{ session: string; turn: string }> = [];
  const changes = new LogChanges();
  const base = inMemoryApiDeps(bearerNameTenant);
  const starter: ExecutionStarter = {
    start: async ({ session, turn }) => {
      if (ending.held) started.push({ session, turn });
      else void answer({ session, turn });
      return turn;
    },
    stop: async () => {},
  };
  const deps: ApiDeps = { ...base, log: changes.watch(base.log), changes, starter, cancelGraceMs: 0 };
  const answer = async ({ session, turn }: { session: string; turn: string }) => {
    await modelStep(await startTurn({ session, turn }, deps), {
      ...deps,
      model: new ScriptedModel(['Hi.<end>']),
      tools: [],
      targetOf: () => 'tools',
    });
    await endTurn(
      { session, turn, status: ending.status, message: `The turn ended: ${ending.status}.` },
      deps,
    );
  };
  const app = createApi({ ...deps, ...overrides(deps) });
  /** An MCP client of the app acting for `tenant`. */
  const client = (tenant: string) => mcpClientOf(app, tenant);
  return { app, deps, ending, started, answer, client };
}

/** Calls `name` with `args`, as a result with content (never a task). */
async function call(
  mcp: Client,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (p: Progress) => void,
) {
  return (await mcp.callTool(
    { name, arguments: args },
    undefined,
    onprogress ? { onprogress } : {},
  )) as CallToolResult;
}

describe('POST /mcp', () => {
  it('lists ask, list_sessions and get_session, the last two read-only, ask with its output schema', async () => {
    const mcp = await (await api()).client('alice');
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ask', 'list_sessions', 'get_session']);
    const [ask, list, get] = tools;
    expect(ask?.inputSchema.required).toEqual(['message']);
    expect(Object.keys(ask?.outputSchema?.properties ?? {})).toEqual(['session', 'turn', 'status', 'answer']);
    expect(list?.annotations?.readOnlyHint).toBe(true);
    expect(get?.annotations?.readOnlyHint).toBe(true);
    expect(get?.inputSchema.required).toEqual(['session']);
  });

  it('ask runs a turn in a new session and answers when it ends, with progress for each logged event', async () => {
    const { client, deps } = api();
    const mcp = await client('alice');
    const progress: Progress[] = [];
    const result = await call(mcp, 'ask', { message: 'Hello' }, (p) => progress.push(p));
    const { session, turn } = result.structuredContent as { session: string; turn: string };
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Hi.' }],
      structuredContent: { session, turn, status: 'done', answer: 'Hi.' },
    });
    expect(progress.map((p) => p.message)).toEqual([
      'The turn began.',
      'Answering.',
      'The turn ended: done.',
    ]);
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    const listed = await call(mcp, 'list_sessions', {});
    expect(listed.structuredContent).toMatchObject({ sessions: [{ session, status: 'idle', turns: 1 }] });
    expect((await deps.log.read(storedSession('alice', session))).at(-1)?.event.type).toBe('turn_end');
  });

  it('ask with a session continues it; another tenant can neither continue, read nor list it', async () => {
    const { client, deps } = api();
    const alice = await client('alice');
    const first = (await call(alice, 'ask', { message: 'One' })).structuredContent as { session: string };
    const second = await call(alice, 'ask', { message: 'Two', session: first.session });
    expect(second.structuredContent).toMatchObject({ session: first.session, status: 'done', answer: 'Hi.' });
    const users = (await deps.log.read(storedSession('alice', first.session))).filter(
      ({ event }) => event.type === 'user',
    );
    expect(users.map(({ event }) => event.type === 'user' && event.content)).toEqual(['One', 'Two']);
    expect((await call(alice, 'get_session', { session: first.session })).structuredContent).toMatchObject({
      session: first.session,
      turns: 2,
      lastTurn: { status: 'done' },
    });
    const bob = await client('bob');
    const refused = {
      content: [{ type: 'text', text: `Session ${first.session} was not found.` }],
      isError: true,
    };
    expect(await call(bob, 'ask', { message: 'Mine now', session: first.session })).toEqual(refused);
    expect(await call(bob, 'get_session', { session: first.session })).toEqual(refused);
    expect((await call(bob, 'list_sessions', {})).structuredContent).toEqual({ sessions: [] });
    expect(await deps.log.read(storedSession('bob', first.session))).toEqual([]);
  });

  it('a failed turn is an error result that says why, with the session to read it', async () => {
    const { client, ending } = api();
    ending.status = 'failed';
    const result = await call(await client('alice'), 'ask', { message: 'Hello' });
    const { session, turn } = result.structuredContent as { session: string; turn: string };
    expect(result).toEqual({
      content: [{ type: 'text', text: `Turn ${turn} of session ${session} failed: The turn ended: failed.` }],
      structuredContent: { session, turn, status: 'failed', answer: 'Hi.' },
      isError: true,
    });
  });

  it('bad arguments are an error result naming the field', async () => {
    const mcp = await (await api()).client('alice');
    const result = await call(mcp, 'ask', { message: '' });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('message') }]);
    expect((await call(mcp, 'get_session', { session: '../etc' })).isError).toBe(true);
  });

  it('a store that cannot be reached is an error result, not a failed request', async () => {
    const { client } = api((deps) => ({
      log: eventLogWith(deps.log, {
        read: async () => {
          throw new StoreUnavailableError('throttled');
        },
      }),
    }));
    const mcp = await client('alice');
    expect(await call(mcp, 'get_session', { session: 's-1' })).toEqual({
      content: [{ type: 'text', text: 'The store is unavailable (throttled); try again shortly.' }],
      isError: true,
    });
    expect((await call(mcp, 'ask', { message: 'Hi', session: 's-1' })).isError).toBe(true);
  });

  it('refuses a request without credentials (401), and GET and DELETE (405: the server is stateless)', async () => {
    const { app } = api();
    const unsigned = await app.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unsigned.status).toBe(401);
    for (const method of ['GET', 'DELETE']) {
      const response = await app.request('/mcp', { method, headers: { authorization: 'Bearer alice' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });
  it("ask as a task: answers the turn's task at once; tasks/get says where it stands, tasks/result gives the answer", async () => {
    const { client, ending, started, answer } = api();
    ending.held = true;
    const alice = await client('alice');
    const created = await alice.request(
      {
        method: 'tools/call',
        params: { name: 'ask', arguments: { message: 'Hello' }, task: { ttl: 60_000 } },
      },
      CreateTaskResultSchema,
    );
    const [turn] = started;
    if (turn === undefined) throw new Error('no turn started');
    const { taskId } = created.task;
    const session = taskId.slice(0, taskId.lastIndexOf('/'));
    expect(taskId).toBe(`${session}/${turn.turn}`);
    expect(storedSession('alice', session)).toBe(turn.session);
    expect(created.task).toMatchObject({ status: 'working', statusMessage: 'The turn began.', ttl: null });
    expect(await alice.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'working' });
    await expect((await client('bob')).experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
    await answer(turn);
    expect(await alice.experimental.tasks.getTask(taskId)).toMatchObject({
      status: 'completed',
      statusMessage: 'The turn ended: done.',
    });
    const result = await alice.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'Hi.' }]);
    expect(result.structuredContent).toMatchObject({ turn: turn.turn, status: 'done', answer: 'Hi.' });
  });

  it("tasks/cancel cancels the task's turn", async () => {
    const { client, deps, ending } = api();
    ending.held = true;
    const alice = await client('alice');
    const { task } = await alice.request(
      { method: 'tools/call', params: { name: 'ask', arguments: { message: 'Hello' }, task: {} } },
      CreateTaskResultSchema,
    );
    expect(await alice.experimental.tasks.cancelTask(task.taskId)).toMatchObject({ status: 'cancelled' });
    const session = task.taskId.slice(0, task.taskId.lastIndexOf('/'));
    const events = await deps.log.read(storedSession('alice', session));
    expect(events.at(-1)?.event).toMatchObject({ type: 'turn_end', payload: { status: 'cancelled' } });
    const result = await alice.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
  });
  it('an ask whose turn runs past streamLimitMs stops waiting with an error result for a client that cannot resume; the turn runs on', async () => {
    const { app, client, deps, ending, started, answer } = api(() => ({ streamLimitMs: 50 }));
    ending.held = true;
    const mcp = await client('alice');
    // A client of 2025-06-18 reads no priming event: its stream cannot resume.
    const response = await post(
      app,
      {
        method: 'tools/call',
        params: { name: 'ask', arguments: { message: 'Hello' } },
      },
      { 'mcp-protocol-version': '2025-06-18' },
    );
    const { result } = (await answerOf(response)) as { result: unknown };
    const [turn] = started;
    if (turn === undefined) throw new Error('no turn started');
    const session = turn.session.slice(storedSession('alice', '').length);
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: `Turn ${turn.turn} of session ${session} is still running: follow it with get_session, or call ask as a task.`,
        },
      ],
      isError: true,
    });
    expect((await deps.log.read(turn.session)).map(({ event }) => event.type)).toEqual(['user']);
    expect((await call(mcp, 'get_session', { session })).structuredContent).toMatchObject({
      status: 'running',
    });
    await answer(turn);
    expect((await call(mcp, 'get_session', { session })).structuredContent).toMatchObject({ status: 'idle' });
  });

  it('an ask whose turn runs past streamLimitMs closes a resumable stream: the client comes back for the answer', async () => {
    const { app, ending, started, answer } = api(() => ({ streamLimitMs: 50 }));
    ending.held = true;
    let cameBack = () => {};
    const resumed = new Promise<void>((resolve) => {
      cameBack = resolve;
    });
    const mcp = await mcpClientOf(app, 'alice', (fetch) => async (url, init) => {
      if (new Headers(init?.headers).has('last-event-id')) cameBack();
      return fetch(url, init);
    });
    const asked = call(mcp, 'ask', { message: 'Hello' });
    await resumed;
    const [turn] = started;
    if (turn === undefined) throw new Error('no turn started');
    await answer(turn);
    expect((await asked).structuredContent).toMatchObject({ turn: turn.turn, status: 'done', answer: 'Hi.' });
  });

  it('an ask on a session whose turn runs says to wait for that turn or cancel it', async () => {
    const { client, ending, started } = api();
    ending.held = true;
    const mcp = await client('alice');
    const { task } = await mcp.request(
      { method: 'tools/call', params: { name: 'ask', arguments: { message: 'One' }, task: {} } },
      CreateTaskResultSchema,
    );
    const session = task.taskId.slice(0, task.taskId.lastIndexOf('/'));
    expect(await call(mcp, 'ask', { message: 'Two', session })).toEqual({
      content: [
        {
          type: 'text',
          text: `Session ${session} is running a turn: wait for it to end (get_session says where it stands), or cancel it (tasks/cancel of its task, or POST /sessions/${session}/cancel), then ask again.`,
        },
      ],
      isError: true,
    });
    expect(started).toHaveLength(1);
  });

  it('a task id whose session part is no session id is not found, and never reaches the store', async () => {
    const reached: string[] = [];
    const { client } = api((deps) => ({
      log: eventLogWith(deps.log, {
        appended: async (stored, key) => {
          reached.push(stored);
          return deps.log.appended(stored, key);
        },
      }),
    }));
    const mcp = await client('alice');
    for (const taskId of ['../t-1', 'a/../b/t-1', `${'s'.repeat(MAX_PUBLIC_SESSION_LENGTH + 1)}/t-1`, '/t-1'])
      await expect(mcp.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
    expect(reached).toEqual([]);
  });

  it('a client that leaves an ask ends its answer at once; the turn runs on', async () => {
    const { app, deps, ending, started } = api();
    ending.held = true;
    const leave = new AbortController();
    const response = await app.request('/mcp', {
      method: 'POST',
      headers: {
        authorization: 'Bearer alice',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'ask', arguments: { message: 'Hello' }, _meta: { progressToken: 1 } },
      }),
      signal: leave.signal,
    });
    const reader = (response.body ?? new ReadableStream()).pipeThrough(new TextDecoderStream()).getReader();
    let read = '';
    while (!read.includes('The turn began.')) read += (await reader.read()).value ?? '';
    const [turn] = started;
    if (turn === undefined) throw new Error('no turn started');
    leave.abort();
    // The answer ends without a result: the transport closed, the ask stopped waiting.
    for (let next = await reader.read(); !next.done; next = await reader.read()) read += next.value;
    expect(read).not.toContain('"result"');
    expect((await deps.log.read(turn.session)).map(({ event }) => event.type)).toEqual(['user']);
  });

  it('an ask stream dropped mid-turn resumes from its last event id: every progress once, then the answer', async () => {
    const { app, ending, started, answer } = api();
    ending.held = true;
    const resumedWith: string[] = [];
    let cut = () => {};
    const dropped = new Promise<void>((resolve) => {
      cut = resolve;
    });
    // The first ask stream breaks as a network would, right after the turn's first progress.
    const mcp = await mcpClientOf(app, 'alice', (fetch) => async (url, init) => {
      const response = await fetch(url, init);
      const resumed = new Headers(init?.headers).get('last-event-id');
      if (resumed !== null) resumedWith.push(resumed);
      if (init?.method !== 'POST' || !String(init.body).includes('"ask"')) return response;
      return new Response(breakingAfter(response, 'The turn began.', cut), response);
    });
    const progress: Progress[] = [];
    const asked = call(mcp, 'ask', { message: 'Hello' }, (p) => progress.push(p));
    await dropped;
    const [turn] = started;
    if (turn === undefined) throw new Error('no turn started');
    await answer(turn);
    const result = await asked;
    const session = turn.session.slice(storedSession('alice', '').length);
    expect(result.structuredContent).toEqual({ session, turn: turn.turn, status: 'done', answer: 'Hi.' });
    expect(resumedWith).toHaveLength(1);
    expect(resumedWith[0]).toMatch(/^ask\./);
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(progress.map((p) => p.message)).toEqual([
      'The turn began.',
      'Answering.',
      'The turn ended: done.',
    ]);
  });

  it('resumes for its own tenant only, and refuses an event id it never gave (400)', async () => {
    // Another tenant's resume waits for a turn that never begins in its log, up to the stream limit.
    const { app, client } = api(() => ({ streamLimitMs: 200 }));
    const alice = await client('alice');
    const { structuredContent } = await call(alice, 'ask', { message: 'Hello' });
    const { session, turn } = structuredContent as { session: string; turn: string };
    const eventId = askEventId({ request: 7, session, turn, sent: 0 });
    const resume = (tenant: string, id = eventId) =>
      app.request('/mcp', {
        headers: { authorization: `Bearer ${tenant}`, accept: 'text/event-stream', 'last-event-id': id },
      });
    const own = await answerOf(await resume('alice'));
    expect(own).toMatchObject({ id: 7, result: { structuredContent: { session, turn, answer: 'Hi.' } } });
    // Bob's log has no such turn: his stream ends with nothing, as for a turn not yet begun.
    expect(await answerOf(await resume('bob'))).toBeUndefined();
    const forged = await resume('alice', 'ask.bm90IGpzb24');
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { error: { message: string } }).error.message).toContain(
      'is not an event id of this server',
    );
  });

  it('a resume that comes before its turn began waits for it, primed with where the client stands', async () => {
    const { app, deps, ending, answer } = api();
    ending.held = true;
    const ids = { tenant: 'alice', session: 's-early', turn: 't-early' };
    const eventId = askEventId({ request: 9, session: ids.session, turn: ids.turn, sent: 0 });
    const resumed = await app.request('/mcp', {
      headers: { authorization: 'Bearer alice', accept: 'text/event-stream', 'last-event-id': eventId },
    });
    const reader = (resumed.body ?? new ReadableStream()).pipeThrough(new TextDecoderStream()).getReader();
    let read = (await reader.read()).value ?? '';
    // Before anything of the turn: the client already holds an id to come back with.
    expect(read).toBe(`retry: 1000\nid: ${eventId}\ndata: \n\n`);
    await startSessionTurn(deps, { message: 'Hello' }, ids);
    await answer({ session: storedSession('alice', ids.session), turn: ids.turn });
    for (let next = await reader.read(); !next.done; next = await reader.read()) read += next.value;
    expect(await answerOf(new Response(read))).toMatchObject({
      id: 9,
      result: { structuredContent: { session: ids.session, turn: ids.turn, answer: 'Hi.' } },
    });
  });

  it('primes every stream with an event id and retry; any other request than ask resumes by answering it anew', async () => {
    const { app } = api();
    const latest = { 'mcp-protocol-version': '2025-11-25' };
    const listing = await (await post(app, { method: 'tools/list' }, latest)).text();
    const primed = /^id: (req\.\S+)\nretry: 1000\ndata: \n\n/.exec(listing);
    expect(primed).not.toBeNull();
    const resumed = await app.request('/mcp', {
      headers: { authorization: 'Bearer alice', ...latest, 'last-event-id': primed?.[1] ?? '' },
    });
    expect(await answerOf(resumed)).toEqual(await answerOf(new Response(listing)));
    const asking = await post(
      app,
      { method: 'tools/call', params: { name: 'ask', arguments: { message: 'Hello' } } },
      latest,
    );
    expect(await asking.text()).toMatch(/^id: ask\.\S+\nretry: 1000\ndata: \n\n/);
    // An ask is never started again by a resume: a request id naming one is no id of this server.
    const ask = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'ask', arguments: { message: 'Again' } },
    };
    const forged = await app.request('/mcp', {
      headers: {
        authorization: 'Bearer alice',
        'last-event-id': `req.${Buffer.from(JSON.stringify(ask)).toString('base64url')}`,
      },
    });
    expect(forged.status).toBe(400);
  });

  it('refuses a body over MAX_MCP_BODY_BYTES (413) before reading it as MCP', async () => {
    const { app } = api();
    const message = 'x'.repeat(MAX_MCP_BODY_BYTES);
    const response = await post(app, {
      method: 'tools/call',
      params: { name: 'ask', arguments: { message } },
    });
    expect(response.status).toBe(413);
  });

  it('ask takes a message of MAX_ASK_MESSAGE_BYTES however JSON escapes it, and names a longer one', async () => {
    const { app } = api();
    // One UTF-8 byte each, six in JSON (\u0001): the largest request a message at the limit makes.
    const message = '\u0001'.repeat(MAX_ASK_MESSAGE_BYTES);
    const request = { method: 'tools/call', params: { name: 'ask', arguments: { message } } };
    expect(JSON.stringify(request).length).toBeGreaterThan(6 * MAX_ASK_MESSAGE_BYTES);
    expect(await answerOf(await post(app, request))).toMatchObject({
      result: { structuredContent: { status: 'done', answer: 'Hi.' } },
    });
    const over = { ...request, params: { ...request.params, arguments: { message: `${message}x` } } };
    expect(await answerOf(await post(app, over))).toMatchObject({
      result: {
        isError: true,
        content: [{ type: 'text', text: expect.stringMatching(/message: must be at most 262144 bytes/) }],
      },
    });
  });

  it.each([
    [
      'tools/call',
      { name: 'ask', arguments: 'Hello' },
      'Invalid params for tools/call: params.arguments must be an object, not a string.',
    ],
    ['tools/call', { name: 7 }, 'Invalid params for tools/call: params.name must be a string, not a number.'],
    ['tools/call', {}, 'Invalid params for tools/call: params.name is missing: it must be a string.'],
    [
      'tasks/get',
      { taskId: 5 },
      'Invalid params for tasks/get: params.taskId must be a string, not a number.',
    ],
    [
      'tools/list',
      { cursor: 5 },
      'Invalid params for tools/list: params.cursor must be a string, not a number.',
    ],
  ])(
    'answers %s with wrong-typed params %j with -32602 and one sentence',
    async (method, params, sentence) => {
      const { app } = api();
      const response = await post(app, { method, params });
      expect(response.status).toBe(200);
      expect(await answerOf(response)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32602, message: sentence },
      });
    },
  );
});

/** Posts one JSON-RPC request (id 1) to the app's `/mcp` as alice, with `headers` added. */
function post(
  app: ReturnType<typeof api>['app'],
  request: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    app.request('/mcp', {
      method: 'POST',
      headers: {
        authorization: 'Bearer alice',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...request }),
    }),
  );
}

/** The JSON-RPC answer in an MCP response's events. */
async function answerOf(response: Response): Promise<unknown> {
  const data = (await response.text())
    .split('\n')
    // A priming event's data is empty.
    .filter((line) => line.startsWith('data: ') && line !== 'data: ')
    .map((line) => JSON.parse(line.slice('data: '.length)));
  return data.find((message) => 'result' in message || 'error' in message);
}

/**
 * The response's body up to and including the chunk that holds `text`, then an error as a dropped
 * connection gives (after `onBreak`).
 */
function breakingAfter(response: Response, text: string, onBreak: () => void): ReadableStream<Uint8Array> {
  const reader = (response.body ?? new ReadableStream()).getReader();
  const decoder = new TextDecoder();
  let read = '';
  return new ReadableStream({
    pull: async (controller) => {
      if (read.includes(text)) {
        await reader.cancel();
        controller.error(new TypeError('terminated'));
        onBreak();
        return;
      }
      const next = await reader.read();
      if (next.done) return controller.close();
      read += decoder.decode(next.value, { stream: true });
      controller.enqueue(next.value);
    },
  });
}
