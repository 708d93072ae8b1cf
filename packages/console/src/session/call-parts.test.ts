import { describe, expect, it } from 'vitest';
import { callParts } from './call-parts.js';
import type { CallEvent } from './timeline-entries.js';

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
