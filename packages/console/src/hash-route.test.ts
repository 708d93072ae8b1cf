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
  ])('reads %j as %j', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('reads back the hashes it makes, odd characters included', () => {
    expect(parseRoute(sessionHref('a.b/c d'))).toEqual({ page: 'session', session: 'a.b/c d' });
    expect(parseRoute(workflowHref('wf.1'))).toEqual({ page: 'workflow', run: 'wf.1' });
  });
});
