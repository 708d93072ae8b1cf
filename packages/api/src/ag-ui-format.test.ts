import { EventSchema } from '@ag-ui/core/schemas';
import type { PersistedEvent, StoredEvent, WireEventOf } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { type AgUiEnd, AgUiFormat } from './ag-ui-format.js';
import type { Frame } from './stream-format.js';

const RUN = { threadId: 'thread-1', runId: 'run-1' };
const B1 = 't-1.1';
const B2 = 't-1.2';

/** A logged event at `seq`, of model step `batch` when given. */
function stored(seq: number, event: PersistedEvent, batch?: string, position?: number): StoredEvent {
  return {
    session: 's',
    seq,
    ...(batch === undefined ? {} : { batch }),
    ...(position === undefined ? {} : { position }),
    event,
  };
}

const at = { timestamp: 1 };
const call = (name: string, args: unknown): PersistedEvent => ({
  type: 'call',
  content: JSON.stringify({ name, args }),
  ...at,
});
const result = (items: unknown[]): PersistedEvent => ({
  type: 'result',
  content: JSON.stringify(items),
  payload: { tools_executed: items.length, success_count: items.length, failure_count: 0 },
  ...at,
});
const turnEnd = (status: 'done' | 'failed' | 'cancelled'): PersistedEvent => ({
  type: 'turn_end',
  content: `The turn ended: ${status}.`,
  payload: { turn: 't-1', status },
  ...at,
});
const metric: WireEventOf<'metric'> = {
  type: 'metric',
  step: { input: 10, output: 5 },
  total: { input: 10, output: 5 },
  payload: { model: 'scripted', batch: B1, latency_ms: 1, cache_read: 0, cache_write: 0 },
  ...at,
};

/** A turn that thinks, calls two tools, gets both results, then answers. */
const TURN: StoredEvent[] = [
  stored(1, { type: 'user', content: 'Go', ...at }),
  stored(2, { type: 'think', content: 'Two calls.', ...at }, B1),
  stored(3, call('echo', { text: 'hi' }), B1, 0),
  stored(4, call('clock', {}), B1, 1),
  stored(
    5,
    result([
      { tool: 'echo', status: 'success', content: 'hi' },
      { tool: 'clock', status: 'failure', content: { error: 'no clock' } },
    ]),
    B1,
  ),
  stored(6, { type: 'respond', content: 'Done.', ...at }, B2),
  stored(7, turnEnd('done')),
];

/** The events of `frames`, each checked against AG-UI's own schema. */
function eventsOf(frames: Frame[]) {
  return frames.map((frame) => {
    expect(frame.id).toBeUndefined();
    const event = JSON.parse(frame.data);
    expect(EventSchema.safeParse(event).error).toBeUndefined();
    return event;
  });
}

function play(format: AgUiFormat, events: StoredEvent[], end: AgUiEnd) {
  return eventsOf([
    ...events.flatMap((event) => format.event(event)),
    ...format.metric(metric),
    ...format.done(end),
  ]);
}

describe('AgUiFormat', () => {
  it('maps a logged turn to AG-UI events in order: steps, reasoning, calls, results in call order, text, the run’s end with usage', () => {
    const events = play(new AgUiFormat(RUN), TURN, { status: 'done', turn: 't-1' });
    expect(events.map((event) => event.type)).toEqual([
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
    ]);
    expect(events[0]).toEqual({ type: 'RUN_STARTED', ...RUN });
    expect(events[4]).toEqual({
      type: 'REASONING_MESSAGE_CONTENT',
      messageId: 'reasoning-2',
      delta: 'Two calls.',
    });
    expect(events.slice(7, 10)).toEqual([
      { type: 'TOOL_CALL_START', toolCallId: `${B1}.0`, toolCallName: 'echo', parentMessageId: 'msg-2' },
      { type: 'TOOL_CALL_ARGS', toolCallId: `${B1}.0`, delta: '{"text":"hi"}' },
      { type: 'TOOL_CALL_END', toolCallId: `${B1}.0` },
    ]);
    expect(events.slice(13, 15)).toEqual([
      {
        type: 'TOOL_CALL_RESULT',
        messageId: `result-${B1}.0`,
        toolCallId: `${B1}.0`,
        content: 'hi',
        role: 'tool',
      },
      {
        type: 'TOOL_CALL_RESULT',
        messageId: `result-${B1}.1`,
        toolCallId: `${B1}.1`,
        content: '{"error":"no clock"}',
        role: 'tool',
      },
    ]);
    expect(events[18]).toEqual({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg-6', delta: 'Done.' });
    expect(events.at(-1)).toEqual({
      type: 'RUN_FINISHED',
      ...RUN,
      result: { turn: 't-1', status: 'done' },
      outcome: { type: 'success' },
      usage: [{ model: 'scripted', inputTokens: 10, outputTokens: 5, totalTokens: 15 }],
    });
  });

  it('sends a streamed step’s text once, as it streams; its logged events only close the parts', () => {
    const format = new AgUiFormat(RUN);
    const live = (kind: 'think' | 'respond', index: number, text: string) =>
      format.live({ session: 's', step: 0, index, kind, text, afterSeq: 1 });
    const events = eventsOf([
      ...format.event(TURN[0] as StoredEvent),
      ...live('think', 0, 'Hm'),
      ...live('think', 1, 'm.'),
      ...live('respond', 2, 'Hel'),
      ...live('respond', 3, 'lo.'),
      ...format.event(stored(2, { type: 'think', content: 'Hmm.', ...at }, B1), true),
      ...format.event(stored(3, { type: 'respond', content: 'Hello.', ...at }, B1), true),
      ...format.event(stored(4, turnEnd('done'))),
      ...format.done({ status: 'done', turn: 't-1' }),
    ]);
    expect(events.map((event) => [event.type, event.delta].filter(Boolean).join(' '))).toEqual([
      'RUN_STARTED',
      'STEP_STARTED',
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT Hm',
      'REASONING_MESSAGE_CONTENT m.',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT Hel',
      'TEXT_MESSAGE_CONTENT lo.',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    // The live step is named after its first logged event, as a logged step would be.
    expect(events[1]).toEqual({ type: 'STEP_STARTED', stepName: 'step-2' });
    expect(events[8]).toEqual({ type: 'TEXT_MESSAGE_START', messageId: 'msg-2', role: 'assistant' });
  });

  it('sends a compaction as a CUSTOM event named compacted, its payload the value, between steps left as they were', () => {
    const payload = {
      upToSeq: 5,
      summary: 'Two calls were made.',
      tokensBefore: 7950,
      tokensAfter: 1830,
      model: 'openai:gpt-4o',
      strategy: 'summarize' as const,
      turns: 1,
      calls: 2,
    };
    const compacted = stored(6, { type: 'compacted', content: 'Compacted.', payload, ...at });
    const later = TURN.slice(5).map((event) => ({ ...event, seq: event.seq + 1 }));
    const plain = play(new AgUiFormat(RUN), TURN, { status: 'done', turn: 't-1' });
    const events = play(new AgUiFormat(RUN), [...TURN.slice(0, 5), compacted, ...later], {
      status: 'done',
      turn: 't-1',
    });
    expect(events.slice(15, 18)).toEqual([
      { type: 'STEP_FINISHED', stepName: 'step-2' },
      { type: 'CUSTOM', name: 'compacted', value: payload },
      { type: 'STEP_STARTED', stepName: 'step-7' },
    ]);
    const others = events.filter((event) => event.type !== 'CUSTOM');
    expect(others.map((event) => event.type)).toEqual(plain.map((event) => event.type));
  });

  it('ends a run whose calls wait for a person as an interrupt, closing the open step first', () => {
    const interrupt = { id: `${B1}.0`, reason: 'tool_approval', toolCallId: `${B1}.0` };
    const events = play(new AgUiFormat(RUN), TURN.slice(0, 3), {
      status: 'interrupt',
      turn: null,
      interrupts: [interrupt],
    });
    expect(events.slice(-2)).toEqual([
      { type: 'STEP_FINISHED', stepName: 'step-2' },
      {
        type: 'RUN_FINISHED',
        ...RUN,
        outcome: { type: 'interrupt', interrupts: [interrupt] },
        usage: [{ model: 'scripted', inputTokens: 10, outputTokens: 5, totalTokens: 15 }],
      },
    ]);
  });

  it('ends a cancelled turn with the cancelled outcome, a failed one with RUN_ERROR', () => {
    const cancelled = play(new AgUiFormat(RUN), [...TURN.slice(0, 2), stored(3, turnEnd('cancelled'))], {
      status: 'cancelled',
      turn: 't-1',
    });
    expect(cancelled.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    const failed = play(new AgUiFormat(RUN), [TURN[0] as StoredEvent, stored(2, turnEnd('failed'))], {
      status: 'failed',
      turn: 't-1',
      error: { message: 'The model failed.', code: 'ModelError' },
    });
    expect(failed.at(-1)).toEqual({
      type: 'RUN_ERROR',
      message: 'The model failed.',
      code: 'ModelError',
      usage: [{ model: 'scripted', inputTokens: 10, outputTokens: 5, totalTokens: 15 }],
    });
  });

  it('sends nothing of a later turn, nor after the run’s end', () => {
    const format = new AgUiFormat(RUN);
    const events = eventsOf([
      ...TURN.flatMap((event) => format.event(event)),
      ...format.event(stored(8, { type: 'user', content: 'Again', ...at })),
      ...format.event(stored(9, { type: 'respond', content: 'Later.', ...at }, 't-2.1')),
      ...format.done({ status: 'done', turn: 't-1' }),
      ...format.done({ status: 'done', turn: 't-2' }),
      ...format.error({ error: { code: 'StoreUnavailable', message: 'Down.' } }),
    ]);
    expect(events.filter((event) => event.type.startsWith('RUN_'))).toHaveLength(2);
    expect(events.some((event) => event.delta === 'Later.')).toBe(false);
    expect(format.over).toBe(true);
  });

  it('ends a stream that failed with RUN_ERROR in the API’s error shape', () => {
    const format = new AgUiFormat(RUN);
    expect(eventsOf(format.error({ error: { code: 'StoreUnavailable', message: 'Down.' } }))).toEqual([
      { type: 'RUN_STARTED', ...RUN },
      { type: 'RUN_ERROR', message: 'Down.', code: 'StoreUnavailable' },
    ]);
  });

  it('gives an outcome with no call (A6: the batch was no array) a call of its own before its result', () => {
    const failure = { tool: 'execute', status: 'failure', content: 'The batch is not a JSON array.' };
    const events = play(
      new AgUiFormat(RUN),
      [TURN[0] as StoredEvent, stored(2, result([failure]), B1), stored(3, turnEnd('done'))],
      { status: 'done', turn: 't-1' },
    );
    expect(events.slice(2, 6)).toEqual([
      { type: 'TOOL_CALL_START', toolCallId: `${B1}.0`, toolCallName: 'execute', parentMessageId: 'msg-2' },
      { type: 'TOOL_CALL_ARGS', toolCallId: `${B1}.0`, delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: `${B1}.0` },
      expect.objectContaining({ type: 'TOOL_CALL_RESULT', content: failure.content }),
    ]);
  });
});
