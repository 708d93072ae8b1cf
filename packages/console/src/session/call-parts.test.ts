import { describe, expect, it } from 'vitest';
import { callParts, finishedCalls } from './call-parts.js';
import type { BatchEntry, CallEvent } from './timeline-entries.js';

const call = (content: string): CallEvent => ({ type: 'call', content, seq: 1, timestamp: 0 });

describe('callParts', () => {
  it("names an MCP tool's server (SERVER__TOOL), and no server for the agent's own tools", () => {
    expect(callParts(call('{"name": "github__search_issues", "args": {"q": "bug"}}'))).toEqual({
      name: 'github__search_issues',
      args: { q: 'bug' },
      server: 'github',
    });
    expect(callParts(call('{"name": "word_count", "args": {}}'))).toEqual({ name: 'word_count', args: {} });
  });

  it('shows a call that is not JSON, or has no name, as it is', () => {
    expect(callParts(call('[oops'))).toEqual({ name: '(not JSON)', args: '[oops' });
    expect(callParts(call('{"args": 1}'))).toEqual({ name: '(no name)', args: 1 });
  });
});

describe('finishedCalls', () => {
  const waiting: BatchEntry = {
    kind: 'batch',
    key: 'batch-2',
    calls: [call('{"name": "echo", "args": {}}'), call('{"name": "sleep", "args": {}}')],
    approvals: [],
    outcomes: [
      {
        type: 'call_outcome',
        key: 'outcome-t.1#1',
        batch: 't.1',
        position: 1,
        tool: 'sleep',
        status: 'success',
        content: 'slept',
        ms: 1200,
      },
    ],
    result: undefined,
  };

  it('shows a call that finished while the batch waits as finished, with its outcome and how long it ran', () => {
    expect(finishedCalls(waiting)).toEqual([
      undefined,
      { outcome: { tool: 'sleep', status: 'success', content: 'slept' }, ms: 1200 },
    ]);
  });

  it("takes every call's outcome and time from the batch's result once it is logged", () => {
    const content = JSON.stringify([
      { tool: 'echo', status: 'failure', content: 'denied' },
      { tool: 'sleep', status: 'success', content: 'slept' },
    ]);
    const result = {
      type: 'result' as const,
      seq: 5,
      content,
      payload: { tools_executed: 2, success_count: 1, failure_count: 1, durations_ms: [null, 1201] },
      timestamp: 0,
    };
    expect(finishedCalls({ ...waiting, result })).toEqual([
      { outcome: { tool: 'echo', status: 'failure', content: 'denied' }, ms: undefined },
      { outcome: { tool: 'sleep', status: 'success', content: 'slept' }, ms: 1201 },
    ]);
  });
});
