import type { SessionsList, TurnAccepted, WorkflowRunsList } from '@agentstep/protocol';
import { endTurn } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { createApi } from './create-api.js';
import { bearerNameTenant, storedSession } from './tenants.js';
import { inMemoryApiDeps } from './testing/index.js';

/** The API on in-memory stores, its clock moved by hand so that creation order is plain. */
function api() {
  let now = Date.parse('2026-11-23T10:00:00Z');
  const deps = { ...inMemoryApiDeps(bearerNameTenant), clock: { now: () => now } };
  const app = createApi(deps);
  const request = async (method: string, path: string, body?: unknown, tenant = 'alice') => {
    const response = await app.request(path, {
      method,
      headers: { authorization: `Bearer ${tenant}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: JSON.parse(await response.text()) };
  };
  /** Starts a session for `tenant`, one minute after the previous one. */
  const begin = async (tenant = 'alice') => {
    now += 60_000;
    return (await request('POST', '/sessions', { message: 'Hi' }, tenant)).body as TurnAccepted;
  };
  const start = async (tenant = 'alice') => (await begin(tenant)).session;
  return { deps, request, begin, start };
}

describe('the list routes', () => {
  it('GET /sessions lists the caller’s sessions newest first, each with its summary and times', async () => {
    const { request, start } = api();
    const first = await start();
    const second = await start();
    await start('bob');
    const { status, body } = await request('GET', '/sessions');
    expect(status).toBe(200);
    expect(body).toEqual({
      sessions: [
        {
          session: second,
          status: 'running',
          turns: 1,
          lastSeq: 1,
          lastTurn: null,
          usage: { input: 0, output: 0, costUsd: 0 },
          queued: [],
          createdAt: '2026-11-23T10:02:00.000Z',
          lastActivity: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
        expect.objectContaining({ session: first, createdAt: '2026-11-23T10:01:00.000Z' }),
      ],
      next: null,
    });
  });

  it('filters by status and pages with limit and after', async () => {
    const { request, start } = api();
    const ids = [await start(), await start(), await start()];
    const [oldest = '', , newest = ''] = ids;
    const page = async (query: string) => (await request('GET', `/sessions?${query}`)).body as SessionsList;
    const one = await page('limit=2');
    expect(one.sessions.map(({ session }) => session)).toEqual([newest, ids[1]]);
    expect(one.next).toBe(ids[1]);
    const two = await page(`limit=2&after=${one.next}`);
    expect(two).toMatchObject({ sessions: [{ session: oldest }], next: null });
    expect((await page('status=idle')).sessions).toEqual([]);
    expect((await page('status=running')).sessions).toHaveLength(3);
  });

  it('shows a session whose turn ended as idle, with how its last turn ended: a failed one too', async () => {
    const { deps, request, begin } = api();
    const { session, turn } = await begin();
    await endTurn(
      { session: storedSession('alice', session), turn, status: 'failed', message: 'Boom.' },
      deps,
    );
    const { body } = await request('GET', '/sessions?status=idle');
    expect((body as SessionsList).sessions).toEqual([
      expect.objectContaining({ session, status: 'idle', lastTurn: { turn, status: 'failed' } }),
    ]);
  });

  it.each([
    ['a limit over 100', 'limit=101'],
    ['an unknown status', 'status=sleeping'],
    ['an after naming nothing listed', 'after=s-nope'],
  ])('refuses %s with 400 ValidationError', async (_case, query) => {
    const { request } = api();
    const { status, body } = await request('GET', `/sessions?${query}`);
    expect({ status, code: body.error.code }).toEqual({ status: 400, code: 'ValidationError' });
  });

  it('GET /workflows lists the caller’s runs newest first with their status', async () => {
    const { request } = api();
    const agentfile = 'NAME one\nGOAL g "Do it."\nRUN r USING g\n';
    const run = (await request('POST', '/workflows', { agentfile, run: 'wf-a' })).body.run;
    await request('POST', '/workflows', { agentfile, run: 'wf-b' }, 'bob');
    const { status, body } = await request('GET', '/workflows');
    expect(status).toBe(200);
    expect(body as WorkflowRunsList).toEqual({
      runs: [{ run, workflow: 'one', status: 'running', startedAt: '2026-11-23T10:00:00.000Z', lastSeq: 1 }],
      next: null,
    });
  });
});
