import {
  BATCH_TOOL_NAME,
  type PersistedEvent,
  type StoredEvent,
  type WireEventOf,
} from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { AiSdkFormat } from './ai-sdk-format.js';
import { WAITING } from './stream-format.js';

const at = (seq: number, event: PersistedEvent, batch?: string): StoredEvent => ({
  session: 's',
  seq,
  event,
  ...(batch ? { batch, position: 0 } : {}),
});
const end = (status: 'done' | 'failed' | 'cancelled' | 'limit', content: string): PersistedEvent => ({
  type: 'turn_end',
  content,
  payload: { turn: 't', status },
  timestamp: 1,
});
const chunks = (format: AiSdkFormat, ...events: StoredEvent[]) =>
  events.flatMap((stored) => format.event(stored)).map((frame) => JSON.parse(frame.data));

describe('AiSdkFormat', () => {
  it('a cancelled turn aborts its message, closing the open step first', () => {
    const format = new AiSdkFormat();
    const call = at(
      2,
      { type: 'call', content: '{"name":"sleep","args":{}}', payload: { index: 0 }, timestamp: 1 },
      't.1',
    );
    expect(chunks(format, call, at(3, end('cancelled', 'The turn was cancelled.')))).toEqual([
      { type: 'start-step' },
      { type: 'tool-input-available', toolCallId: 't.1#0', toolName: 'sleep', input: {}, dynamic: true },
      { type: 'finish-step' },
      { type: 'abort', reason: 'The turn was cancelled.' },
    ]);
  });

  it('a failed turn is an error, then a finish for the reason "error"; a limit finishes for "length"', () => {
    expect(chunks(new AiSdkFormat(), at(1, end('failed', 'The provider refused the key.')))).toEqual([
      { type: 'error', errorText: 'The provider refused the key.' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(chunks(new AiSdkFormat(), at(1, end('limit', 'Step limit.')))).toEqual([
      { type: 'finish', finishReason: 'length' },
    ]);
  });

  it('a batch that was not one (A6) is a tool part whose input failed, and the message goes on', () => {
    const result: PersistedEvent = {
      type: 'result',
      content: JSON.stringify([{ tool: BATCH_TOOL_NAME, status: 'failure', content: 'not a JSON array' }]),
      payload: { tools_executed: 1, success_count: 0, failure_count: 1 },
      timestamp: 1,
    };
    expect(chunks(new AiSdkFormat(), at(2, result, 't.1'))).toEqual([
      { type: 'start-step' },
      {
        type: 'tool-input-error',
        toolCallId: 't.1#0',
        toolName: BATCH_TOOL_NAME,
        input: null,
        errorText: 'not a JSON array',
        dynamic: true,
      },
      { type: 'finish-step' },
    ]);
  });

  it('ends the stream with [DONE], and keeps each frame’s seq as its id', () => {
    const format = new AiSdkFormat();
    expect(format.event(at(7, { type: 'user', content: 'hi', timestamp: 1 }))).toEqual([
      { id: '7', data: '{"type":"start"}' },
    ]);
    expect(format.done()).toEqual([{ data: '[DONE]' }]);
  });

  it("an approval is the SDK's request, then its decision; a settlement after the step leaves the step alone", () => {
    const format = new AiSdkFormat();
    const requested = approval(3, {
      id: 't.1.0',
      index: 0,
      status: 'requested',
      tool: 'echo',
      args: { text: 'a' },
    });
    const approved = approval(4, { id: 't.1.0', index: 0, status: 'approved', by: 'alice' });
    const respond: PersistedEvent = { type: 'respond', content: 'Waiting.', timestamp: 1 };
    expect(chunks(format, requested, approved, at(5, respond, 't.2'))).toEqual([
      { type: 'tool-approval-request', approvalId: 't.1.0', toolCallId: 't.1#0' },
      { type: 'tool-approval-response', approvalId: 't.1.0', approved: true },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-5' },
      { type: 'text-delta', id: 'text-5', delta: 'Waiting.' },
      { type: 'text-end', id: 'text-5' },
    ]);
  });

  it.each([
    ['denied', 'not today', 'not today'],
    ['expired', undefined, 'An approval.'],
    ['cancelled', undefined, 'An approval.'],
  ] as const)(
    'a call %s is denied, and its failure in the result is not sent again',
    (status, reason, said) => {
      const format = new AiSdkFormat();
      const settled = approval(3, { id: 't.1.0', index: 0, status, ...(reason ? { reason } : {}) });
      const result: PersistedEvent = {
        type: 'result',
        content: JSON.stringify([
          { tool: 'echo', status: 'failure', content: 'denied' },
          { tool: 'echo', status: 'success', content: 'b' },
        ]),
        payload: { tools_executed: 2, success_count: 1, failure_count: 1 },
        timestamp: 1,
      };
      expect(chunks(format, settled, at(4, result, 't.1'))).toEqual([
        { type: 'tool-approval-response', approvalId: 't.1.0', approved: false, reason: said },
        { type: 'tool-output-denied', toolCallId: 't.1#0' },
        { type: 'start-step' },
        { type: 'tool-output-available', toolCallId: 't.1#1', output: 'b', dynamic: true },
        { type: 'finish-step' },
      ]);
    },
  );

  it('with a turn: one message named by it, nothing after its end, and a wait for approval finishes for tool-calls', () => {
    const user = at(1, { type: 'user', content: 'hi', timestamp: 1 });
    const respond: PersistedEvent = { type: 'respond', content: 'Hi.', timestamp: 1 };
    const next = at(4, { type: 'user', content: 'again', timestamp: 1 });
    const format = new AiSdkFormat({ turn: 't' });
    expect(chunks(format, user, at(2, respond, 't.1'), at(3, end('done', 'Hi.')), next)).toEqual([
      { type: 'start', messageId: 't' },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-2' },
      { type: 'text-delta', id: 'text-2', delta: 'Hi.' },
      { type: 'text-end', id: 'text-2' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    const waiting = new AiSdkFormat({ turn: 't' });
    // The client holds the turn so far: the format moves on without sending it.
    waiting.chunks(user);
    waiting.chunks(at(2, respond, 't.1'));
    expect(waiting.done({ status: WAITING, turn: 't' }).map((frame) => frame.data)).toEqual([
      JSON.stringify({ type: 'start', messageId: 't' }),
      JSON.stringify({ type: 'finish-step' }),
      JSON.stringify({ type: 'finish', finishReason: 'tool-calls' }),
      '[DONE]',
    ]);
  });

  it("sends a call's outcome while its batch waits, once: the batch's result then leaves it out", () => {
    const format = new AiSdkFormat();
    const calls = chunks(format, call(2, 0), call(3, 1));
    const early = format.outcome({
      type: 'call_outcome',
      batch: 't.1',
      position: 1,
      tool: 'sleep',
      status: 'success',
      content: 'slept',
      ms: 3,
    });
    const result: PersistedEvent = {
      type: 'result',
      content: JSON.stringify([
        { tool: 'echo', status: 'success', content: 'a' },
        { tool: 'sleep', status: 'success', content: 'slept' },
      ]),
      payload: { tools_executed: 2, success_count: 2, failure_count: 0 },
      timestamp: 1,
    };
    expect([...calls, ...early.map((frame) => JSON.parse(frame.data))]).toEqual([
      { type: 'start-step' },
      expect.objectContaining({ type: 'tool-input-available', toolCallId: 't.1#0' }),
      expect.objectContaining({ type: 'tool-input-available', toolCallId: 't.1#1' }),
      { type: 'tool-output-available', toolCallId: 't.1#1', output: 'slept', dynamic: true },
    ]);
    expect(early.every((frame) => frame.id === undefined)).toBe(true);
    expect(chunks(format, at(4, result, 't.1'))).toEqual([
      { type: 'tool-output-available', toolCallId: 't.1#0', output: 'a', dynamic: true },
      { type: 'finish-step' },
    ]);
  });

  it('leaves out what the client holds: the decisions it made itself and the outcomes it has', () => {
    const format = new AiSdkFormat({
      turn: 't',
      held: {
        decisions: new Map([
          ['t.1.0', true],
          ['t.1.1', false],
          ['t.1.3', true],
        ]),
        outputs: new Set(['t.1#2']),
      },
    });
    format.catchUp([0, 1, 2, 3].map((position) => call(2 + position, position)));
    const result: PersistedEvent = {
      type: 'result',
      content: JSON.stringify([
        { tool: 'echo', status: 'success', content: 'a' },
        { tool: 'echo', status: 'failure', content: 'denied' },
        { tool: 'sleep', status: 'success', content: 'slept' },
        { tool: 'echo', status: 'failure', content: 'denied' },
      ]),
      payload: { tools_executed: 4, success_count: 2, failure_count: 2 },
      timestamp: 1,
    };
    expect(
      chunks(
        format,
        approval(6, { id: 't.1.0', index: 0, status: 'approved', by: 'ann' }),
        approval(7, { id: 't.1.1', index: 1, status: 'denied', by: 'ann' }),
        // Decided elsewhere before the client's yes came: the client learns of it.
        approval(8, { id: 't.1.3', index: 3, status: 'denied', by: 'bob', reason: 'No.' }),
        at(9, result, 't.1'),
      ),
    ).toEqual([
      { type: 'start', messageId: 't' },
      { type: 'tool-output-denied', toolCallId: 't.1#1' },
      { type: 'tool-approval-response', approvalId: 't.1.3', approved: false, reason: 'No.' },
      { type: 'tool-output-denied', toolCallId: 't.1#3' },
      { type: 'tool-output-available', toolCallId: 't.1#0', output: 'a', dynamic: true },
      { type: 'finish-step' },
    ]);
  });

  it('a compaction is a transient data-compacted part between steps, which it leaves as they were', () => {
    const payload = {
      upToSeq: 2,
      summary: 'A call to sleep.',
      tokensBefore: 7950,
      tokensAfter: 1830,
      strategy: 'summarize' as const,
      model: 'openai:gpt-4o',
      turns: 1,
      calls: 1,
    };
    const result: PersistedEvent = {
      type: 'result',
      content: JSON.stringify([{ tool: 'sleep', status: 'success', content: 'rested' }]),
      payload: { tools_executed: 1, success_count: 1, failure_count: 0 },
      timestamp: 1,
    };
    const compacted: PersistedEvent = { type: 'compacted', content: 'Compacted.', payload, timestamp: 1 };
    const respond: PersistedEvent = { type: 'respond', content: 'Rested.', timestamp: 1 };
    const format = new AiSdkFormat();
    expect(chunks(format, at(3, result, 't.1'), at(4, compacted), at(5, respond, 't.2'))).toEqual([
      { type: 'start-step' },
      { type: 'tool-output-available', toolCallId: 't.1#0', output: 'rested', dynamic: true },
      { type: 'finish-step' },
      { type: 'data-compacted', id: 'compacted-4', data: payload, transient: true },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-5' },
      { type: 'text-delta', id: 'text-5', delta: 'Rested.' },
      { type: 'text-end', id: 'text-5' },
    ]);
  });

  it('a compaction logged between a streamed step’s text and its own events leaves the step streamed', () => {
    const format = new AiSdkFormat();
    const live = format.live({ session: 's', step: 1, index: 0, kind: 'respond', text: 'Hi', afterSeq: 3 });
    const compacted: PersistedEvent = {
      type: 'compacted',
      content: 'Compacted.',
      payload: {
        upToSeq: 2,
        summary: 'Left out.',
        tokensBefore: 90,
        tokensAfter: 30,
        strategy: 'drop',
        turns: 1,
        calls: 0,
      },
      timestamp: 1,
    };
    const respond: PersistedEvent = { type: 'respond', content: 'Hi', timestamp: 1 };
    const logged = [...format.event(at(4, compacted)), ...format.event(at(5, respond, 't.2'), true)];
    expect([...live, ...logged].map((frame) => JSON.parse(frame.data).type)).toEqual([
      'start-step',
      'text-start',
      'text-delta',
      'data-compacted',
      'text-end',
    ]);
  });

  it('streams a step’s text as it is written, and its stored think and respond only end the part', () => {
    const format = new AiSdkFormat();
    const piece = (index: number, kind: 'think' | 'respond', text: string) =>
      format.live({ session: 's', step: 4, index, kind, text, afterSeq: 1 });
    const live = [piece(0, 'think', 'Hm'), piece(1, 'think', 'm.'), piece(2, 'respond', 'Hi')].flat();
    expect(live.every((frame) => frame.id === undefined)).toBe(true);
    const think: PersistedEvent = { type: 'think', content: 'Hmm.', timestamp: 1 };
    const respond: PersistedEvent = { type: 'respond', content: 'Hi', timestamp: 1 };
    const stored = [at(2, think, 't.1'), at(3, respond, 't.1'), at(4, end('done', 'Hi'))];
    const logged = stored.flatMap((event) => format.event(event, event.batch !== undefined));
    expect([...live, ...logged].map((frame) => JSON.parse(frame.data))).toEqual([
      { type: 'start-step' },
      { type: 'reasoning-start', id: 'reasoning-4.0' },
      { type: 'reasoning-delta', id: 'reasoning-4.0', delta: 'Hm' },
      { type: 'reasoning-delta', id: 'reasoning-4.0', delta: 'm.' },
      { type: 'reasoning-end', id: 'reasoning-4.0' },
      { type: 'text-start', id: 'text-4.2' },
      { type: 'text-delta', id: 'text-4.2', delta: 'Hi' },
      { type: 'text-end', id: 'text-4.2' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(logged.map((frame) => frame.id)).toEqual(['2', '4', '4']);
  });

  it('sends a stored step’s text whole when the stream did not see it stream', () => {
    const format = new AiSdkFormat();
    format.live({ session: 's', step: 4, index: 3, kind: 'respond', text: 'late', afterSeq: 1 });
    const respond: PersistedEvent = { type: 'respond', content: 'All of it.', timestamp: 1 };
    expect(chunks(format, at(5, respond, 't.2'))).toEqual([
      { type: 'text-end', id: 'text-4.3' },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-5' },
      { type: 'text-delta', id: 'text-5', delta: 'All of it.' },
      { type: 'text-end', id: 'text-5' },
    ]);
  });
});

function call(seq: number, position: number): StoredEvent {
  const content = JSON.stringify({ name: position === 2 ? 'sleep' : 'echo', args: {} });
  return { session: 's', seq, batch: 't.1', position, event: { type: 'call', content, timestamp: 1 } };
}

function approval(seq: number, payload: WireEventOf<'approval'>['payload']): StoredEvent {
  return at(seq, { type: 'approval', content: 'An approval.', payload, timestamp: 1 }, 't.1');
}
