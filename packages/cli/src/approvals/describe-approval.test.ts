import type { WireEventOf } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { describeApproval } from './describe-approval.js';

const approval = (payload: Partial<WireEventOf<'approval'>['payload']>): WireEventOf<'approval'> => ({
  type: 'approval',
  timestamp: 1,
  payload: { id: 't.1.2', index: 2, status: 'requested', ...payload },
});

describe('describeApproval', () => {
  it.each([
    [
      { tool: 'echo', args: { text: 'hi' } },
      '  ⏸ #2 echo {"text":"hi"} waits for approval (id t.1.2): agentstep approve s t.1.2 [--deny]',
    ],
    [{ status: 'approved' as const, by: 'pat' }, '  ✓ #2 echo approved by pat'],
    [{ status: 'approved' as const, args: { text: 'b' } }, '  ✓ #2 echo approved with {"text":"b"}'],
    [{ status: 'denied' as const, by: 'pat', reason: 'nope' }, '  ✗ #2 echo denied by pat: nope'],
    [{ status: 'expired' as const }, '  ⌛ #2 echo expired: nobody decided in time'],
    [{ status: 'cancelled' as const }, '  ✗ #2 echo cancelled while it waited for approval'],
  ])('%j → %s', (payload, line) => {
    expect(describeApproval(approval(payload), { session: 's', tool: 'echo' })).toBe(line);
  });

  it('cuts long arguments to a preview', () => {
    const line = describeApproval(approval({ args: { text: 'x'.repeat(500) } }), {
      session: 's',
      tool: 'echo',
    });
    expect(line).toContain(`{"text":"${'x'.repeat(111)}…`);
    expect(line.length).toBeLessThan(250);
  });
});
