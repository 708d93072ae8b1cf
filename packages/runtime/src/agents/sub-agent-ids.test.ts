import { isSessionId } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { sessionDepth } from './session-depth.js';
import { subAgentIds } from './sub-agent-ids.js';

const call = { session: 's-1a2b3c4d', batch: 't-5e6f7a8b.2', position: 3 };

describe('subAgentIds', () => {
  it('names the same sub-agent for the same call and index, another for another index or position', () => {
    const ids = subAgentIds(call, 0);
    expect(ids).toEqual(subAgentIds(call, 0));
    expect(ids.session).toMatch(/^s-1a2b3c4d--sub-([0-9a-f]{12})$/);
    expect(ids.turn).toBe(`t-${ids.session.slice(-12)}`);
    expect(isSessionId(ids.session)).toBe(true);
    expect(subAgentIds(call, 1).session).not.toBe(ids.session);
    expect(subAgentIds({ ...call, position: 4 }, 0).session).not.toBe(ids.session);
  });

  it('refuses a caller whose session id leaves no room for the suffix, saying why', () => {
    expect(() => subAgentIds({ ...call, session: 's'.repeat(111) }, 0)).toThrow(
      /too long to name its sub-agents' sessions \(129 characters, over 128\)/,
    );
  });
});

describe('sessionDepth', () => {
  it.each([
    ['s-1a2b3c4d', 0],
    ['wf-1.3', 0],
    ['0123456789abcdef.tenant-session', 0],
    [subAgentIds(call, 0).session, 1],
    [subAgentIds({ ...call, session: subAgentIds(call, 0).session }, 0).session, 2],
  ])('%s is at depth %i', (session, depth) => {
    expect(sessionDepth(session)).toBe(depth);
  });
});
