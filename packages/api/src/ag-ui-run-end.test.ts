import { InterruptSchema } from '@ag-ui/core/schemas';
import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { agUiRunEnd } from './ag-ui-run-end.js';

const at = { timestamp: 1 };
const stored = (seq: number, event: PersistedEvent, batch?: string): StoredEvent => ({
  session: 's',
  seq,
  ...(batch === undefined ? {} : { batch }),
  event,
});
const user = (seq: number) => stored(seq, { type: 'user', content: 'Go', ...at });
const end = (seq: number, turn: string, status: 'done' | 'failed', error?: string) =>
  stored(seq, {
    type: 'turn_end',
    content: `Turn ${turn}: ${status}.`,
    payload: { turn, status, ...(error === undefined ? {} : { error }) },
    ...at,
  });
const approval = (seq: number, status: 'requested' | 'approved') =>
  stored(
    seq,
    {
      type: 'approval',
      payload: { id: 't-2.1.0', index: 0, status, tool: 'echo', args: { text: 'a' }, expires_at: 100 },
      ...at,
    },
    't-2.1',
  );

describe('agUiRunEnd', () => {
  it('ends with the first turn_end after the run’s start, not an earlier turn’s', () => {
    const ended = agUiRunEnd(2);
    expect(ended([user(1), end(2, 't-1', 'done'), user(3)])).toBeUndefined();
    expect(ended([end(4, 't-2', 'failed', 'ModelError')])).toEqual({
      status: 'failed',
      turn: 't-2',
      error: { message: 'Turn t-2: failed.', code: 'ModelError' },
    });
  });

  it('ends with an interrupt while the running turn’s calls wait, until they are decided', () => {
    const waiting = agUiRunEnd(0)([user(1), approval(2, 'requested')]);
    expect(waiting).toMatchObject({ status: 'interrupt', turn: null });
    const [interrupt] = waiting?.interrupts ?? [];
    expect(InterruptSchema.safeParse(interrupt).error).toBeUndefined();
    expect(interrupt).toMatchObject({
      id: 't-2.1.0',
      toolCallId: 't-2.1.0',
      reason: 'tool_approval',
      expiresAt: new Date(100_000).toISOString(),
      metadata: { tool: 'echo', args: { text: 'a' } },
    });
    expect(agUiRunEnd(0)([user(1), approval(2, 'requested'), approval(3, 'approved')])).toBeUndefined();
  });
});
