import { describe, expect, it } from 'vitest';
import { isPersistedType, PERSISTED_EVENT_TYPES, storedEventSchema } from './stored-event.js';
import { type EventType, wireEventSchema } from './wire-event.js';

/** The upstream event-stream examples (docs/protocol.md, section 2), plus the types it gave no example for. */
const specExamples: unknown[] = [
  { type: 'user', content: "What's in main.py?", timestamp: 1234567890.0 },
  { type: 'think', content: 'reasoning text', timestamp: 1234567890.0 },
  { type: 'call', content: '{"name": "read", "args": {"file": "main.py"}}', timestamp: 1234567890.0 },
  { type: 'execute', timestamp: 1234567890.0 },
  {
    type: 'result',
    content: '[...]',
    payload: { tools_executed: 1, success_count: 1, failure_count: 0 },
    timestamp: 1234567890.0,
  },
  { type: 'respond', content: 'final response', timestamp: 1234567890.0 },
  { type: 'end', timestamp: 1234567890.0 },
  {
    type: 'metric',
    step: { input: 50, output: 30 },
    total: { input: 100, output: 50 },
    timestamp: 1234567890.0,
  },
  { type: 'error', content: 'Model call failed', timestamp: 1.5 },
  { type: 'interrupt', timestamp: 1.5 },
  { type: 'cancelled', content: 'Cancelled by the user', timestamp: 1.5 },
];

/** The terminal record of a turn: the one extension event kept in the log. */
const turnEnd = {
  type: 'turn_end',
  content: 'The turn failed: ModelAuthFailed: the key was refused',
  timestamp: 1.5,
  payload: { turn: 't1', status: 'failed', error: 'ModelAuthFailed' },
};

describe('wireEventSchema', () => {
  it.each(specExamples)('C1 accepts the spec example %j', (example) => {
    expect(wireEventSchema.parse(example)).toEqual(example);
  });

  it('C1 covers all eleven event types', () => {
    const types = specExamples.map((example) => wireEventSchema.parse(example).type);
    expect(new Set(types).size).toBe(11);
  });

  it('accepts the turn_end extension and refuses an unknown status', () => {
    expect(wireEventSchema.parse(turnEnd)).toEqual(turnEnd);
    const unknown = { ...turnEnd, payload: { turn: 't1', status: 'finished' } };
    expect(wireEventSchema.safeParse(unknown).success).toBe(false);
  });

  it.each([
    ['C1 a missing timestamp', { type: 'user', content: 'hi' }],
    ['C1 non-text content', { type: 'think', content: 42, timestamp: 1 }],
    ['C1 a result without counts', { type: 'result', content: '[]', timestamp: 1 }],
    ['C1 an unknown type', { type: 'tool_use', content: '', timestamp: 1 }],
  ])('C1 rejects %s', (_rule, event) => {
    expect(wireEventSchema.safeParse(event).success).toBe(false);
  });
});

describe('isPersistedType', () => {
  it.each<[EventType, boolean]>([
    ['user', true],
    ['think', true],
    ['call', true],
    ['result', true],
    ['respond', true],
    ['cancelled', true],
    ['turn_end', true],
    ['workflow', true],
    ['execute', false],
    ['end', false],
    ['metric', false],
    ['error', false],
    ['interrupt', false],
  ])('C1 %s persisted: %s', (type, persisted) => {
    expect(isPersistedType(type)).toBe(persisted);
  });

  it('C1 lists exactly the six persisted types, the turn_start and turn_end records, approvals, workflow records and compactions', () => {
    expect([...PERSISTED_EVENT_TYPES].sort()).toEqual([
      'approval',
      'call',
      'cancelled',
      'compacted',
      'respond',
      'result',
      'think',
      'turn_end',
      'turn_start',
      'user',
      'workflow',
    ]);
  });
});

describe('storedEventSchema', () => {
  it('C2 keeps storage fields apart from the wire event', () => {
    const stored = {
      session: 's1',
      seq: 3,
      batch: 'b1',
      position: 0,
      event: { type: 'call', content: '{"name":"a","args":{}}', timestamp: 1, payload: { index: 0 } },
    };
    expect(storedEventSchema.parse(stored)).toEqual(stored);
  });

  it('C1 refuses to store a transient event', () => {
    const stored = { session: 's1', seq: 0, event: { type: 'execute', timestamp: 1 } };
    expect(storedEventSchema.safeParse(stored).success).toBe(false);
  });
});
