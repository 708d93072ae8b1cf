import type { ErrorBody } from '@agentstep/protocol';
import {
  awaitApproval,
  closeBatch,
  decideApproval,
  endTurn,
  invokeTool,
  modelStep,
  ScriptedModel,
  startTurn,
} from '@agentstep/runtime';
import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import type { ApiDeps } from './api-deps.js';
import { createApi } from './create-api.js';
import { MAX_CONVERSATION_BODY_BYTES } from './read-body.js';
import { bearerNameTenant, storedSession } from './tenants.js';
import { inMemoryApiDeps, stepIntoApprovals } from './testing/index.js';

/** The API in memory for `alice` (and whoever a request names), and what a test does with it. */
function api() {
  const deps = { ...inMemoryApiDeps(bearerNameTenant), pollMs: 10, cancelGraceMs: 0, leaveGraceMs: 0 };
  const app = createApi(deps);
  const headers = (tenant: string) => ({
    authorization: `Bearer ${tenant}`,
    'content-type': 'application/json',
  });
  const chat = (body: unknown, tenant = 'alice') =>
    app.request('/chat', { method: 'POST', headers: headers(tenant), body: JSON.stringify(body) });
  const get = (path: string, tenant = 'alice') => app.request(path, { headers: headers(tenant) });
  return { deps, chat, get };
}

/** The transport's body sending `text` as user message `id` of chat `chat`. */
function userMessage(chat: string, id: string, text: string, history: unknown[] = []) {
  const message = { id, role: 'user', parts: [{ type: 'text', text }] };
  return { id: chat, messages: [...history, message], trigger: 'submit-message' };
}

/** Takes the running `turn` of `alice`'s `session` through one step answering `text`, then ends it. */
async function answerAndEnd(deps: ApiDeps, session: string, turn: string, text: string) {
  const stored = storedSession('alice', session);
  await modelStep(await startTurn({ session: stored, turn }, deps), {
    ...deps,
    model: new ScriptedModel([`<think>Easy.</think>${text}<end>`]),
    tools: [],
    targetOf: () => 'tools',
  });
  await endTurn({ session: stored, turn, status: 'done', message: 'Done.' }, deps);
}

/** The UI message stream chunks of a response, `[DONE]` as the string. */
async function chunksOf(response: Response): Promise<Array<Record<string, unknown> | string>> {
  return (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}

const startOf = (chunks: Array<Record<string, unknown> | string>) =>
  chunks.find(
    (chunk): chunk is Record<string, unknown> => typeof chunk === 'object' && chunk.type === 'start',
  );

/**
 * The chunk types `ai` 6's `uiMessageChunkSchema` accepts (ai@6.0.326,
 * src/ui-message-stream/ui-message-chunks.ts), besides `data-*`: any other fails a 6.x client's
 * stream with a TypeValidationError. 7 added `tool-approval-response`.
 */
const AI_6_CHUNKS = new Set([
  'text-start',
  'text-delta',
  'text-end',
  'error',
  'tool-input-start',
  'tool-input-delta',
  'tool-input-available',
  'tool-input-error',
  'tool-approval-request',
  'tool-output-available',
  'tool-output-error',
  'tool-output-denied',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'source-url',
  'source-document',
  'file',
  'start-step',
  'finish-step',
  'start',
  'finish',
  'abort',
  'message-metadata',
]);

/** The chunks of a stream that `ai` 6 could not read. */
const unknownToAi6 = (chunks: Array<Record<string, unknown> | string>) =>
  chunks.filter(
    (chunk) =>
      typeof chunk === 'object' &&
      !AI_6_CHUNKS.has(String(chunk.type)) &&
      !String(chunk.type).startsWith('data-'),
  );

/**
 * The body `ai` 6.0.326's own `AbstractChat` with `DefaultChatTransport` POSTed after
 * `addToolApprovalResponse({ id, approved: true })` made `lastAssistantMessageIsCompleteWithApprovalResponses`
 * true, recorded against `agentstep serve` for a batch of an `echo` waiting for approval beside a
 * `sleep` that needs none; its turn's id replaced by `TURN`, its chat's by `CHAT`.
 */
const AI_6_APPROVAL_BODY =
  '{"id":"CHAT","messages":[{"parts":[{"type":"text","text":"Go"}],"id":"UJO8sWA1cSCyyRQy","role":"user"},{"id":"TURN","metadata":{"usage":{"inputTokens":0,"outputTokens":0}},"role":"assistant","parts":[{"type":"step-start"},{"type":"dynamic-tool","toolName":"echo","toolCallId":"TURN.1#0","state":"approval-responded","input":{"text":"approved"},"approval":{"id":"TURN.1.0","approved":true}},{"type":"dynamic-tool","toolName":"sleep","toolCallId":"TURN.1#1","state":"output-available","input":{"ms":1000,"value":"slept"},"output":"slept"}]}],"trigger":"submit-message","messageId":"TURN"}';

/** The batch of {@link AI_6_APPROVAL_BODY}: an `echo` that waits for approval, a `sleep` that does not. */
const MIXED_BATCH = [
  { name: 'echo', args: { text: 'approved' } },
  { name: 'sleep', args: { ms: 1000, value: 'slept' } },
];

const errorOf = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as ErrorBody,
});

describe('POST /chat: the AI SDK transport’s request', () => {
  it('starts a turn with the newest user message and streams it as one message named by the turn', async () => {
    const { deps, chat } = api();
    const response = await chat(userMessage('c-1', 'm-1', 'Hello'));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const stored = storedSession('alice', 'c-1');
    const [user] = await deps.log.read(stored);
    expect(user?.event).toMatchObject({ type: 'user', content: 'Hello' });
    const turn = (await deps.log.holder(stored))?.turn ?? '';
    await answerAndEnd(deps, 'c-1', turn, 'Hi!');
    const chunks = await chunksOf(response);
    expect(chunks[0]).toEqual({ type: 'start', messageId: turn });
    expect(chunks).toContainEqual({ type: 'text-delta', id: expect.any(String), delta: 'Hi!' });
    expect(chunks.slice(-2)).toEqual([{ type: 'finish', finishReason: 'stop' }, '[DONE]']);
  });

  it('takes only the newest message as input: the history the client sends is not read', async () => {
    const { deps, chat } = api();
    const history = [{ id: 'old', role: 'user', parts: [{ type: 'text', text: 'Made up' }] }];
    const response = await chat(userMessage('c-2', 'm-2', 'Only this', history));
    const events = await deps.log.read(storedSession('alice', 'c-2'));
    expect(events.map(({ event }) => event)).toEqual([
      expect.objectContaining({ type: 'user', content: 'Only this' }),
    ]);
    await response.body?.cancel();
  });

  it('streams the same turn for a retried request: one user event, the same message id', async () => {
    const { deps, chat } = api();
    const first = await chat(userMessage('c-3', 'm-3', 'Once'));
    const retried = await chat(userMessage('c-3', 'm-3', 'Once'));
    expect(retried.status).toBe(200);
    const stored = storedSession('alice', 'c-3');
    const turn = (await deps.log.holder(stored))?.turn ?? '';
    await answerAndEnd(deps, 'c-3', turn, 'Done once.');
    expect(startOf(await chunksOf(first))).toEqual({ type: 'start', messageId: turn });
    expect(startOf(await chunksOf(retried))).toEqual({ type: 'start', messageId: turn });
    const users = (await deps.log.read(stored)).filter(({ event }) => event.type === 'user');
    expect(users).toHaveLength(1);
  });

  it('refuses another message while a turn runs (409), a regenerate and an edit (400): the log only grows', async () => {
    const { chat } = api();
    const running = await chat(userMessage('c-4', 'm-4', 'First'));
    const busy = await errorOf(await chat(userMessage('c-4', 'm-5', 'Second')));
    expect(busy).toMatchObject({ status: 409, body: { error: { code: 'SessionBusy' } } });
    const regenerate = { ...userMessage('c-4', 'm-4', 'First'), trigger: 'regenerate-message' };
    const refused = await errorOf(await chat(regenerate));
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('RegenerateUnsupported');
    expect(refused.body.error.message).toContain('Send a new message instead');
    const edit = { ...userMessage('c-4', 'm-4', 'First, edited'), messageId: 'm-4' };
    expect(await errorOf(await chat(edit))).toMatchObject({
      status: 400,
      body: { error: { code: 'EditUnsupported' } },
    });
    await running.body?.cancel();
  });

  it.each([
    ['an id no session can have', { ...userMessage('c/5', 'm', 'Hi') }, 'id'],
    ['an id over 100 characters', { ...userMessage('c'.repeat(101), 'm', 'Hi') }, 'id'],
    ['no messages', { id: 'c-5', messages: [], trigger: 'submit-message' }, 'messages'],
    [
      'a message without parts',
      { id: 'c-5', messages: [{ id: 'm', role: 'user' }], trigger: 'submit-message' },
      'messages.0.parts',
    ],
    ['an unknown trigger', { ...userMessage('c-5', 'm', 'Hi'), trigger: 'resume' }, 'trigger'],
    ['a user message without text', userMessage('c-5', 'm', '  '), 'messages.0.parts'],
  ])('answers 400 naming the field for %s', async (_, body, path) => {
    const { chat } = api();
    const { status, body: refusal } = await errorOf(await chat(body));
    expect(status).toBe(400);
    expect(refusal.error.fields).toEqual([expect.objectContaining({ path })]);
  });

  it('reads a 1 MiB history, and refuses a body over 4 MiB with 413', async () => {
    const { chat } = api();
    const long = [{ id: 'old', role: 'assistant', parts: [{ type: 'text', text: 'x'.repeat(1024 * 1024) }] }];
    const accepted = await chat(userMessage('c-6', 'm-6', 'Go on', long));
    expect(accepted.status).toBe(200);
    await accepted.body?.cancel();
    const huge = [
      {
        id: 'old',
        role: 'assistant',
        parts: [{ type: 'text', text: 'x'.repeat(MAX_CONVERSATION_BODY_BYTES) }],
      },
    ];
    const refused = await errorOf(await chat(userMessage('c-7', 'm-7', 'Go on', huge)));
    expect(refused).toMatchObject({ status: 413, body: { error: { code: 'PayloadTooLarge' } } });
  });

  it("a tenant's chat id names its own session: another tenant's session of that id is untouched", async () => {
    const { deps, chat } = api();
    const alices = await chat(userMessage('shared', 'm-8', 'Mine'));
    const bobs = await chat(userMessage('shared', 'm-8', 'Mine too'), 'bob');
    expect(bobs.status).toBe(200);
    expect((await deps.log.read(storedSession('alice', 'shared'))).map(({ event }) => event.type)).toEqual([
      'user',
    ]);
    expect((await deps.log.read(storedSession('bob', 'shared'))).map(({ event }) => event.type)).toEqual([
      'user',
    ]);
    await alices.body?.cancel();
    await bobs.body?.cancel();
  });

  it('aborting the response cancels the turn', async () => {
    const { deps, chat } = api();
    const response = await chat(userMessage('c-9', 'm-9', 'Long job'));
    const stored = storedSession('alice', 'c-9');
    await response.body?.cancel();
    const endOf = async () =>
      (await deps.log.read(stored)).find(({ event }) => event.type === 'turn_end')?.event;
    await expect.poll(endOf).toMatchObject({ payload: { status: 'cancelled' } });
  });
});

describe('POST /chat with approvals', () => {
  it('ends the stream once a call waits, then decides the answered approvals and streams the rest as the same message', async () => {
    const { deps, chat, get } = api();
    const response = await chat(userMessage('c-10', 'm-10', 'Echo'));
    const stored = storedSession('alice', 'c-10');
    const turn = (await deps.log.holder(stored))?.turn ?? '';
    const { batch, approvals } = await stepIntoApprovals(deps, { session: stored, turn }, [
      ['echo', { text: 'a' }],
    ]);
    const [approval] = approvals as [string];
    const toolCallId = `${batch}#0`;
    const first = await chunksOf(response);
    expect(first).toContainEqual({ type: 'tool-approval-request', approvalId: approval, toolCallId });
    expect(first.slice(-3)).toEqual([
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'tool-calls' },
      '[DONE]',
    ]);
    expect((await get('/chat/c-10/stream')).status).toBe(204);
    const [, assistant] = (await (await get('/chat/c-10/messages')).json()) as UIMessage[];
    const answered = {
      ...assistant,
      parts: assistant?.parts.map((part) =>
        'approval' in part
          ? {
              ...part,
              state: 'approval-responded',
              approval: { id: approval, approved: false, reason: 'No.' },
            }
          : part,
      ),
    };
    const continued = await chat({
      id: 'c-10',
      messages: [answered],
      trigger: 'submit-message',
      messageId: turn,
    });
    expect(continued.status).toBe(200);
    const decided = (await deps.log.read(stored)).flatMap(({ event }) =>
      event.type === 'approval' ? [event.payload] : [],
    );
    expect(decided).toMatchObject([
      { status: 'requested' },
      { status: 'denied', by: 'alice', reason: 'No.' },
    ]);
    await endTurn({ session: stored, turn, status: 'done', message: 'Done.' }, deps);
    // The client's own decision is not sent back to it: `ai` 6 knows no `tool-approval-response`.
    const rest = await chunksOf(continued);
    expect(rest).toEqual([
      { type: 'start', messageId: turn },
      { type: 'tool-output-denied', toolCallId },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'stop' },
      '[DONE]',
    ]);
    expect(unknownToAi6(rest)).toEqual([]);
  });
});

describe('POST /chat with a batch mixing a call that waits for approval and one that does not', () => {
  /** Takes `alice`'s running turn of `chat` through a step of {@link MIXED_BATCH}, its `echo` waiting for approval. */
  async function stepIntoMixedBatch(deps: ApiDeps, chat: string) {
    const session = storedSession('alice', chat);
    const turn = (await deps.log.holder(session))?.turn ?? '';
    const step = await modelStep(await startTurn({ session, turn }, deps), {
      ...deps,
      model: new ScriptedModel([`<execute>${JSON.stringify(MIXED_BATCH)}</execute>`]),
      tools: deps.toolset.descriptions,
      targetOf: () => 'tools',
      approvals: { toolset: deps.toolset, tools: ['echo'] },
    });
    const [echo, sleep] = step.calls.map((call) => ({ ...call, session, turn, batch: step.batch }));
    if (echo?.approval == null || sleep === undefined)
      throw new Error(`${step.batch} is not the mixed batch`);
    await awaitApproval({ ...echo, approval: echo.approval, token: 'token-0' }, deps);
    return { session, turn, step, echo, sleep, approval: echo.approval };
  }

  it("streams the other call's output before the stream ends waiting, and ai 6's own answer gets the rest, nothing twice", async () => {
    const { deps, chat, get } = api();
    const response = await chat(userMessage('c-20', 'm-20', 'Go'));
    const { session, turn, step, echo, sleep, approval } = await stepIntoMixedBatch(deps, 'c-20');
    let over = false;
    const waiting = chunksOf(response).finally(() => {
      over = true;
    });
    // The echo waits for a person, the sleep still runs: a client could not answer yet.
    await new Promise((settle) => setTimeout(settle, 100));
    expect(over).toBe(false);
    expect((await get('/chat/c-20/stream')).status).toBe(200);
    await invokeTool(sleep, deps);
    const first = await waiting;
    const metadata = (chunk: Record<string, unknown> | string) =>
      typeof chunk === 'object' && chunk.type === 'message-metadata';
    expect(first.filter((chunk) => !metadata(chunk)).slice(-5)).toEqual([
      { type: 'tool-approval-request', approvalId: approval, toolCallId: `${step.batch}#0` },
      { type: 'tool-output-available', toolCallId: `${step.batch}#1`, output: 'slept', dynamic: true },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'tool-calls' },
      '[DONE]',
    ]);
    expect((await get('/chat/c-20/stream')).status).toBe(204);
    const [, assistant] = (await (await get('/chat/c-20/messages')).json()) as UIMessage[];
    expect(assistant?.parts.filter((part) => part.type === 'dynamic-tool')).toMatchObject([
      { toolName: 'echo', state: 'approval-requested', approval: { id: approval } },
      { toolName: 'sleep', state: 'output-available', output: 'slept' },
    ]);
    const answered = JSON.parse(AI_6_APPROVAL_BODY.replaceAll('TURN', turn).replace('CHAT', 'c-20'));
    const continued = await chat(answered);
    expect(continued.status).toBe(200);
    await invokeTool(echo, deps);
    await closeBatch(step, deps);
    await endTurn({ session, turn, status: 'done', message: 'Done.' }, deps);
    const rest = await chunksOf(continued);
    expect(rest).toEqual([
      { type: 'start', messageId: turn },
      { type: 'tool-output-available', toolCallId: `${step.batch}#0`, output: 'approved', dynamic: true },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'stop' },
      '[DONE]',
    ]);
    expect(unknownToAi6([...first, ...rest])).toEqual([]);
  });
});

describe('GET /chat/{id}/stream and /messages', () => {
  it('shows a decision made elsewhere while the chat waited, and lets no other tenant answer', async () => {
    const { deps, chat, get } = api();
    const waiting = await chat(userMessage('c-11', 'm-11', 'Echo'));
    const stored = storedSession('alice', 'c-11');
    const turn = (await deps.log.holder(stored))?.turn ?? '';
    const { batch, approvals } = await stepIntoApprovals(deps, { session: stored, turn }, [
      ['echo', { text: 'a' }],
    ]);
    const [approval] = approvals as [string];
    await chunksOf(waiting);
    const decidedElsewhere = await deps.log.read(stored);
    await decideApproval(
      { session: stored, approval, by: 'carol', body: { decision: 'deny', reason: 'Not now.' } },
      deps,
    );
    const [, assistant] = (await (await get('/chat/c-11/messages')).json()) as UIMessage[];
    const approved = {
      ...assistant,
      parts: assistant?.parts.map((part) =>
        'approval' in part
          ? { ...part, state: 'approval-responded', approval: { id: approval, approved: true } }
          : part,
      ),
    };
    const body = { id: 'c-11', messages: [approved], trigger: 'submit-message', messageId: turn };
    expect((await chat(body, 'bob')).status).toBe(404);
    const continued = await chat(body);
    expect(continued.status).toBe(200);
    const decisions = (await deps.log.read(stored)).filter(
      ({ seq, event }) => seq > (decidedElsewhere.at(-1)?.seq ?? 0) && event.type === 'approval',
    );
    expect(decisions).toHaveLength(1);
    await endTurn({ session: stored, turn, status: 'done', message: 'Done.' }, deps);
    expect(await chunksOf(continued)).toEqual(
      expect.arrayContaining([
        { type: 'tool-approval-response', approvalId: approval, approved: false, reason: 'Not now.' },
        { type: 'tool-output-denied', toolCallId: `${batch}#0` },
      ]),
    );
  });

  it('answers 204 when no turn runs or the chat is new (useChat resumes on every load), and streams a running turn from its start', async () => {
    const { deps, chat, get } = api();
    const fresh = await get('/chat/nobody/stream');
    expect(fresh.status).toBe(204);
    expect(await fresh.text()).toBe('');
    const response = await chat(userMessage('c-11', 'm-11', 'Hello'));
    const resumed = await get('/chat/c-11/stream');
    expect(resumed.status).toBe(200);
    const turn = (await deps.log.holder(storedSession('alice', 'c-11')))?.turn ?? '';
    await answerAndEnd(deps, 'c-11', turn, 'Hi!');
    expect(await chunksOf(resumed)).toEqual(await chunksOf(response));
    const idle = await get('/chat/c-11/stream');
    expect(idle.status).toBe(204);
    expect(await idle.text()).toBe('');
  });

  it('lists the session as UIMessage[]: per turn the user message and one assistant message named by the turn', async () => {
    const { deps, chat, get } = api();
    const turns: string[] = [];
    for (const [id, text] of [
      ['m-12', 'One'],
      ['m-13', 'Two'],
    ] as const) {
      const response = await chat(userMessage('c-12', id, text));
      const turn = (await deps.log.holder(storedSession('alice', 'c-12')))?.turn ?? '';
      await answerAndEnd(deps, 'c-12', turn, `Answer to ${text}.`);
      await chunksOf(response);
      turns.push(turn);
    }
    const messages = (await (await get('/chat/c-12/messages')).json()) as UIMessage[];
    const assistant = (turn: string, text: string) => ({
      id: turn,
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        { type: 'reasoning', id: expect.any(String), text: 'Easy.', state: 'done' },
        { type: 'text', text, state: 'done' },
      ],
    });
    expect(messages).toEqual([
      { id: `${turns[0]}.user`, role: 'user', parts: [{ type: 'text', text: 'One' }] },
      assistant(turns[0] ?? '', 'Answer to One.'),
      { id: `${turns[1]}.user`, role: 'user', parts: [{ type: 'text', text: 'Two' }] },
      assistant(turns[1] ?? '', 'Answer to Two.'),
    ]);
    expect((await get('/chat/c-12/messages', 'bob')).status).toBe(404);
  });
});
