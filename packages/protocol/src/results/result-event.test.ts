import { describe, expect, it } from 'vitest';
import { resultEvent } from './result-event.js';

describe('resultEvent', () => {
  it('B5 writes the spec item shape in call order and counts outcomes', () => {
    const event = resultEvent([
      { tool: 'read', status: 'success', content: 'data' },
      { tool: 'write', status: 'failure', content: 'Permission denied' },
      { tool: 'read', status: 'success', content: { bytes: 22 } },
    ]);
    expect(event).toEqual({
      type: 'result',
      content:
        '[{"tool":"read","status":"success","content":"data"},' +
        '{"tool":"write","status":"failure","content":"Permission denied"},' +
        '{"tool":"read","status":"success","content":{"bytes":22}}]',
      payload: { tools_executed: 3, success_count: 2, failure_count: 1 },
    });
  });

  it.each([
    ['B5 an empty batch', [], { tools_executed: 0, success_count: 0, failure_count: 0 }],
    [
      'B5 all failures',
      [
        { tool: 'a', status: 'failure' as const, content: 'x' },
        { tool: 'b', status: 'failure' as const, content: 'y' },
      ],
      { tools_executed: 2, success_count: 0, failure_count: 2 },
    ],
  ])('%s', (_rule, outcomes, payload) => {
    expect(resultEvent(outcomes).payload).toEqual(payload);
  });

  it('B5 keeps a success whose output is undefined as null, so the item keeps its content key', () => {
    const { content } = resultEvent([{ tool: 'noop', status: 'success', content: undefined }]);
    expect(JSON.parse(content)).toEqual([{ tool: 'noop', status: 'success', content: null }]);
  });
});
