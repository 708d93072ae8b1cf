import type { TurnAccepted, TurnEndStatus, WorkflowAccepted, WorkflowRunSummary } from '@agentstep/protocol';
import { closeStoppedTurn, endTurn, modelStep, ScriptedModel, startTurn } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import type { ApiDeps } from './api-deps.js';
import { createApi } from './create-api.js';
import { singleTenant, storedSession } from './tenants.js';
import { inMemoryApiDeps, stepIntoApprovals } from './testing/index.js';

/** One answer that reports 100 input and 10 output tokens. */
const ANSWER = { chunks: ['Hi.<end>'], usage: { inputTokens: 100, outputTokens: 10 } };

/** Takes `turn` through one model step that answers, then ends it with `status`. */
async function answerAndEnd(deps: ApiDeps, { session, turn }: TurnAccepted, status: TurnEndStatus) {
  const stored = storedSession('local', session);
  await modelStep(await startTurn({ session: stored, turn }, deps), {
    ...deps,
    model: new ScriptedModel([ANSWER]),
    tools: [],
    targetOf: () => 'tools',
  });
  await endTurn({ session: stored, turn, status, message: `The turn ended: ${status}.` }, deps);
}

/** The API in memory, and what a test does with it. */
function api() {
  const deps = inMemoryApiDeps(singleTenant());
  const app = createApi({ ...deps, pollMs: 20 });
  const post = async (path: string, message: string) =>
    (await (
      await app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message }),
      })
    ).json()) as TurnAccepted;
  const stream = (session: string, query = '', headers: Record<string, string> = {}) =>
    app.request(`/sessions/${session}/stream${query}`, { headers });
  return { deps, post, stream };
}

/** A session of two turns, one model step each, that have both ended: the second `failed`. */
async function finishedSession() {
  const { deps, post, stream } = api();
  const first = await post('/sessions', 'One');
  await answerAndEnd(deps, first, 'done');
  const second = await post(`/sessions/${first.session}/messages`, 'Two');
  await answerAndEnd(deps, second, 'failed');
  return { session: first.session, turns: [first.turn, second.turn], stream };
}

/** Each frame's event name (`message` when it has none) and its data. */
async function framesOf(response: Response): Promise<Array<{ event: string; data: unknown }>> {
  return (await response.text())
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((line) => line.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      const data = field('data') ?? '';
      return { event: field('event') ?? 'message', data: data === '[DONE]' ? data : JSON.parse(data) };
    });
}

describe('GET /sessions/{id}/stream, at its ends', () => {
  it.each([
    ['Last-Event-ID at the last seq', '', { 'last-event-id': '6' }],
    ['Last-Event-ID past it', '', { 'last-event-id': '9' }],
    ['?after= at it', '?after=6', {}],
    ['the AI SDK format', '?format=ai-sdk', { 'last-event-id': '6' }],
  ])(
    'answers 204 without a body when no turn runs and nothing is after the resume point: %s',
    async (_, query, headers) => {
      const { session, stream } = await finishedSession();
      const response = await stream(session, query, headers);
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
    },
  );

  it('streams what is after an earlier resume point, then done, as before', async () => {
    const { session, turns, stream } = await finishedSession();
    const frames = await framesOf(await stream(session, '', { 'last-event-id': '5' }));
    // The step logged at seq 5 counts as seen, with its metric.
    expect(frames.map(({ event }) => event)).toEqual(['turn_end', 'done']);
    expect(frames.at(-1)?.data).toEqual({ status: 'failed', turn: turns[1] });
  });

  it('keeps a stream open at the last seq while a turn runs', async () => {
    const { deps, post, stream } = api();
    const accepted = await post('/sessions', 'One');
    const response = await stream(accepted.session, '', { 'last-event-id': '1' });
    expect(response.status).toBe(200);
    await answerAndEnd(deps, accepted, 'done');
    expect((await framesOf(response)).map(({ event }) => event)).toEqual([
      'respond',
      'metric',
      'turn_end',
      'done',
    ]);
  });

  it('sends a compaction logged in the middle of a turn as a frame of its own', async () => {
    const { deps, post, stream } = api();
    const accepted = await post('/sessions', 'One');
    const compacted = {
      type: 'compacted' as const,
      content: 'Compacted the context: event 1 left out.',
      timestamp: 1,
      payload: {
        upToSeq: 1,
        summary: 'A greeting.',
        tokensBefore: 90,
        tokensAfter: 30,
        strategy: 'drop' as const,
        turns: 1,
        calls: 0,
      },
    };
    const session = storedSession('local', accepted.session);
    await deps.log.append({
      session,
      turn: accepted.turn,
      key: 'compaction',
      events: [{ event: compacted }],
    });
    await answerAndEnd(deps, accepted, 'done');
    const frames = await framesOf(await stream(accepted.session));
    expect(frames.map(({ event }) => event)).toEqual([
      'user',
      'compacted',
      'respond',
      'metric',
      'turn_end',
      'done',
    ]);
    expect(frames[1]?.data).toEqual({ seq: 2, ...compacted });
  });

  it("sends a call's outcome while its batch waits for another, without an id, and the batch's result after", async () => {
    const { deps, post, stream } = api();
    const accepted = await post('/sessions', 'Go');
    const session = storedSession('local', accepted.session);
    const calls = [
      ['echo', { text: 'a' }],
      ['sleep', { ms: 0, value: 'slept' }],
    ] as const;
    const { batch } = await stepIntoApprovals(deps, { session, turn: accepted.turn }, calls, {
      approve: ['echo'],
    });
    const response = await stream(accepted.session);
    let text = '';
    const read = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({
        write: (piece) => {
          text += piece;
        },
      }),
    );
    // The echo still waits for a person: the sleep's outcome comes before the batch's result.
    await expect.poll(() => text, { timeout: 5_000 }).toContain('event: call_outcome');
    await closeStoppedTurn({ session, turn: accepted.turn }, 'Stopped by the test.', deps);
    await read;
    const frames = await framesOf(new Response(text));
    expect(frames.map(({ event }) => event)).toEqual([
      'user',
      'call',
      'call',
      'approval',
      'metric',
      'call_outcome',
      'approval',
      'result',
      'turn_end',
      'done',
    ]);
    expect(frames[5]?.data).toEqual({
      type: 'call_outcome',
      batch,
      position: 1,
      tool: 'sleep',
      status: 'success',
      content: 'slept',
      ms: expect.any(Number),
    });
    expect(text).not.toMatch(/id: [^\n]*\nevent: call_outcome/);
    const result = frames[7]?.data as { content?: string } | undefined;
    expect(JSON.parse(result?.content ?? '[]')[1]).toEqual({
      tool: 'sleep',
      status: 'success',
      content: 'slept',
    });
  });

  it("replays each turn's metrics before that turn's turn_end", async () => {
    const { session, turns, stream } = await finishedSession();
    const frames = await framesOf(await stream(session));
    expect(frames.map(({ event }) => event)).toEqual([
      ...['user', 'respond', 'metric', 'turn_end'],
      ...['user', 'respond', 'metric', 'turn_end'],
      'done',
    ]);
    const metrics = frames.filter(({ event }) => event === 'metric').map(({ data }) => data);
    expect(metrics).toMatchObject([
      { payload: { batch: `${turns[0]}.1` }, total: { input: 100, output: 10 } },
      { payload: { batch: `${turns[1]}.1` }, total: { input: 200, output: 20 } },
    ]);
  });

  it("replays each turn's usage in its own message in the AI SDK format", async () => {
    const { session, stream } = await finishedSession();
    const frames = await framesOf(await stream(session, '?format=ai-sdk'));
    // Each message's chunks, from its `start`.
    const messages: unknown[][] = [];
    for (const { data } of frames)
      if ((data as { type?: string }).type === 'start') messages.push([]);
      else messages.at(-1)?.push(data);
    const metadata = (chunks: unknown[]) =>
      chunks.filter((chunk) => (chunk as { type: string }).type === 'message-metadata');
    expect(messages.map(metadata)).toEqual([
      [{ type: 'message-metadata', messageMetadata: { usage: { inputTokens: 100, outputTokens: 10 } } }],
      [{ type: 'message-metadata', messageMetadata: { usage: { inputTokens: 200, outputTokens: 20 } } }],
    ]);
  });
});

describe('GET /workflows/{run}/stream, at its end', () => {
  it('answers 204 once the run has ended and nothing is after the resume point', async () => {
    const deps = inMemoryApiDeps(singleTenant());
    const app = createApi({ ...deps, streamLimitMs: 100, pollMs: 20 });
    const started = await app.request('/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agentfile: 'NAME one\nGOAL g "Do it."\nRUN main USING g\n' }),
    });
    const { run } = (await started.json()) as WorkflowAccepted;
    const resumed = async () => {
      const { lastSeq } = (await (await app.request(`/workflows/${run}`)).json()) as WorkflowRunSummary;
      return app.request(`/workflows/${run}/stream`, { headers: { 'last-event-id': String(lastSeq) } });
    };
    expect((await resumed()).status).toBe(200);
    const stored = storedSession('local', run);
    const payload = { kind: 'end' as const, status: 'done' as const };
    await deps.log.append({
      session: stored,
      turn: stored,
      key: 'end',
      events: [{ event: { type: 'workflow', timestamp: 1, payload, content: 'Done.' } }],
    });
    expect((await resumed()).status).toBe(204);
  });
});
