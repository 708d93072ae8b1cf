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
  /** Starts a session for `tenant` with `message`, one minute after the previous one. */
  const begin = async (tenant = 'alice', message = 'Hi') => {
    now += 60_000;
    return (await request('POST', '/sessions', { message }, tenant)).body as TurnAccepted;
  };
  const start = async (tenant = 'alice', message = 'Hi') => (await begin(tenant, message)).session;
  /** The ids `GET /sessions?{query}` lists, in order. */
  const listed = async (query: string) =>
    ((await request('GET', `/sessions?${query}`)).body as SessionsList).sessions.map(
      ({ session }) => session,
    );
  return { deps, request, begin, start, listed };
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
          title: 'Hi',
          status: 'running',
          turns: 1,
          lastSeq: 1,
          lastTurn: null,
          versions: [],
          usage: { input: 0, output: 0, costUsd: 0 },
          queued: [],
          createdAt: '2026-11-23T10:02:00.000Z',
          lastActivity: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
        expect.objectContaining({ session: first, createdAt: '2026-11-23T10:01:00.000Z' }),
      ],
      next: null,
      totals: { sessions: 2, input: 0, output: 0, costUsd: 0 },
    });
  });

  it('finds sessions by q in their title or id, ignoring case, and totals only what it lists', async () => {
    const { request, start, listed } = api();
    const report = await start('alice', '  Write the   QUARTERLY report\n for Ann ');
    const review = await start('alice', 'Review the quarterly numbers');
    await start('alice', 'Plan the offsite');
    await start('bob', 'Quarterly for Bob');
    expect(await listed('q=quarterly')).toEqual([review, report]);
    expect(await listed('q=quarterly%20REPORT')).toEqual([report]);
    expect(await listed(`q=${review.slice(-6).toUpperCase()}`)).toEqual([review]);
    expect(await listed('q=%20%20')).toHaveLength(3);
    expect(await listed('q=nowhere')).toEqual([]);
    const { body } = await request('GET', '/sessions?q=quarterly');
    expect(body.sessions[1].title).toBe('Write the QUARTERLY report for Ann');
    expect(body.totals).toEqual({ sessions: 2, input: 0, output: 0, costUsd: 0 });
  });

  it('pages a search: next names the last match and the next page goes on after it', async () => {
    const { start, request } = api();
    const matches = [await start('alice', 'Match one'), await start(), await start('alice', 'Match two')];
    await start('alice', 'Match three');
    const first = (await request('GET', '/sessions?q=match&limit=2')).body as SessionsList;
    expect(first.next).toBe(matches[2]);
    const second = (await request('GET', `/sessions?q=match&limit=2&after=${first.next}`))
      .body as SessionsList;
    expect(second).toMatchObject({ sessions: [{ session: matches[0] }], next: null });
  });

  it('lists sessions created within createdAfter (inclusive) and createdBefore, as dates or date-times', async () => {
    const { start, listed } = api();
    // Created at 10:01, 10:02 and 10:03 on 2026-11-23.
    const [first, second, third] = [await start(), await start(), await start()];
    expect(await listed('createdAfter=2026-11-23T10:02:00Z')).toEqual([third, second]);
    expect(await listed('createdBefore=2026-11-23T10:02:00.000Z')).toEqual([first]);
    expect(
      await listed('createdAfter=2026-11-23T11:01:30%2B01:00&createdBefore=2026-11-23T10:03:00Z'),
    ).toEqual([second]);
    expect(await listed('createdAfter=2026-11-23')).toHaveLength(3);
    expect(await listed('createdAfter=2026-11-24')).toEqual([]);
    expect(await listed('createdBefore=2026-11-24&q=hi')).toHaveLength(3);
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

  it('finds the sessions whose last turn failed with lastTurn=failed, beside status', async () => {
    const { deps, begin, listed } = api();
    const end = async (status: 'failed' | 'done') => {
      const { session, turn } = await begin();
      await endTurn({ session: storedSession('alice', session), turn, status, message: status }, deps);
      return session;
    };
    const failed = await end('failed');
    const done = await end('done');
    const running = (await begin()).session;
    expect(await listed('lastTurn=failed')).toEqual([failed]);
    expect(await listed('lastTurn=done&status=idle')).toEqual([done]);
    expect(await listed('lastTurn=failed&status=running')).toEqual([]);
    expect(await listed('status=running')).toEqual([running]);
  });

  it.each([
    ['a limit over 100', 'limit=101'],
    ['an unknown status', 'status=sleeping'],
    ['a lastTurn no turn ends with', 'lastTurn=failing'],
    ['a createdAfter that is no ISO date', 'createdAfter=yesterday'],
    ['a createdBefore without its offset', 'createdBefore=2026-11-23T10:00:00'],
    ['a q over 200 characters', `q=${'x'.repeat(201)}`],
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
