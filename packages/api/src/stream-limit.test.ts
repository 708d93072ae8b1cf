import { setTimeout as sleep } from 'node:timers/promises';
import type { TurnAccepted } from '@agentstep/protocol';
import { endTurn, type NewEvent } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { createApi } from './create-api.js';
import { SessionFeeds } from './session-feeds.js';
import { singleTenant, storedSession } from './tenants.js';
import { inMemoryApiDeps } from './testing/index.js';

const note = (content: string): NewEvent => ({ event: { type: 'user', content, timestamp: 1 } });

/** The `id:` and `event:` lines of a finished SSE response, in order. */
async function frameHeads(response: Response): Promise<string[]> {
  return (await response.text()).split('\n').filter((line) => /^(id|event): /.test(line));
}

describe('a stream that reaches its transport cap (streamLimitMs)', () => {
  it('ends cleanly without done while the turn runs; resumed with Last-Event-ID, it loses and repeats nothing', async () => {
    const deps = inMemoryApiDeps(singleTenant());
    const app = createApi({ ...deps, streamLimitMs: 200, pollMs: 20 });
    const started = await app.request('/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Hi' }),
    });
    const { session, turn } = (await started.json()) as TurnAccepted;
    const capped = await app.request(`/sessions/${session}/stream`);
    expect(await frameHeads(capped)).toEqual(['event: user', 'id: 1']);
    const end = { session: storedSession('local', session), turn, status: 'done' as const, message: 'Done.' };
    await endTurn(end, deps);
    const resumed = await app.request(`/sessions/${session}/stream`, { headers: { 'last-event-id': '1' } });
    expect(await frameHeads(resumed)).toEqual(['event: turn_end', 'id: 2', 'event: done']);
  });
});

describe('a stream whose client reads too slowly (SessionFeeds limit)', () => {
  it('is cut without done instead of buffered; resumed with Last-Event-ID, it loses and repeats nothing', async () => {
    const memory = inMemoryApiDeps(singleTenant());
    const deps = { ...memory, pollMs: 20 };
    const app = createApi({ ...deps, feeds: new SessionFeeds(deps, { limit: 2 }) });
    const started = await app.request('/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Hi' }),
    });
    const { session, turn } = (await started.json()) as TurnAccepted;
    const stored = storedSession('local', session);
    // Not read until the turn has gone on: its writes wait, and the session's reader goes on without it.
    const unread = await app.request(`/sessions/${session}/stream`);
    for (let index = 0; index < 5; index++) {
      await memory.log.append({
        session: stored,
        turn,
        key: `note-${index}`,
        events: [note(`Note ${index}`)],
      });
      await sleep(60);
    }
    const cut = await frameHeads(unread);
    expect(cut).not.toContain('event: done');
    const last =
      cut
        .filter((line) => line.startsWith('id: '))
        .at(-1)
        ?.slice(4) ?? '0';
    expect(Number(last)).toBeLessThan(6);
    await endTurn({ session: stored, turn, status: 'done', message: 'Done.' }, memory);
    const resumed = await app.request(`/sessions/${session}/stream`, { headers: { 'last-event-id': last } });
    const ids = [...cut, ...(await frameHeads(resumed))].filter((line) => line.startsWith('id: '));
    expect(ids).toEqual(['id: 1', 'id: 2', 'id: 3', 'id: 4', 'id: 5', 'id: 6', 'id: 7']);
  });
});
