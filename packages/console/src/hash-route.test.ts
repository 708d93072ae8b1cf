import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRoute, sessionHref, workflowHref } from './hash-route.js';

describe('parseRoute', () => {
  it.each([
    ['', { page: 'sessions' }],
    ['#/', { page: 'sessions' }],
    ['#/nowhere', { page: 'sessions' }],
    ['#/sessions/s-1', { page: 'session', session: 's-1' }],
    ['#/workflows', { page: 'workflows' }],
    ['#/workflows/wf-1', { page: 'workflow', run: 'wf-1' }],
    ['#/sessions/%E0%A4%A', { page: 'sessions' }],
    ['#/sessions/%', { page: 'sessions' }],
    ['#/workflows/%E0%A4%A', { page: 'workflows' }],
  ])('reads %j as %j', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('reads back the hashes it makes, odd characters included', () => {
    expect(parseRoute(sessionHref('a.b/c d'))).toEqual({ page: 'session', session: 'a.b/c d' });
    expect(parseRoute(workflowHref('wf.1'))).toEqual({ page: 'workflow', run: 'wf.1' });
  });

  it('never throws, whatever the hash holds', () => {
    // Escapes, good and bad, are what could make decoding throw.
    const text = fc.string({ unit: fc.constantFrom('%', 'E', '0', 'A', '4', 'f', '/', '#', 'z') });
    const hashes = fc.oneof(
      text,
      text.map((id) => `#/sessions/${id}`),
      text.map((id) => `#/workflows/${id}`),
    );
    fc.assert(fc.property(hashes, (hash) => typeof parseRoute(hash).page === 'string'));
  });
});
