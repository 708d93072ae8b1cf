import type { TurnAccepted } from '@agentstep/protocol';
import { endTurn } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { createApi } from './create-api.js';
import { singleTenant, storedSession } from './tenants.js';
import { inMemoryApiDeps } from './testing/index.js';

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
