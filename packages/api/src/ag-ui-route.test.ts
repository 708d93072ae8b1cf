import type { ErrorBody } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { createApi } from './create-api.js';
import { idsFor } from './ids.js';
import { bearerNameTenant, storedSession } from './tenants.js';
import { inMemoryApiDeps, stepIntoApprovals } from './testing/index.js';

/** The API on in-memory stores, whose turns never run on their own: streams end at their cap. */
function api() {
  const deps = { ...inMemoryApiDeps(bearerNameTenant), cancelGraceMs: 0, streamLimitMs: 100, pollMs: 10 };
  const app = createApi(deps);
  const run = async (input: Record<string, unknown>, tenant = 'alice') => {
    const response = await app.request('/ag-ui', {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant}`, 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: 'thread-1', runId: 'run-1', messages: [], ...input }),
    });
    const text = await response.text();
    if (!response.headers.get('content-type')?.startsWith('text/event-stream'))
      return { status: response.status, error: (JSON.parse(text) as ErrorBody).error, events: [] };
    const events = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)));
    return { status: response.status, error: undefined, events };
  };
  return { deps, run };
}

const ask = (text: string) => [{ id: 'm-1', role: 'user', content: text }];

describe('POST /ag-ui', () => {
  it('refuses bad input before streaming, naming the fields (400)', async () => {
    const { run } = api();
    const badThread = await run({ threadId: '../x', messages: ask('Hi') });
    expect(badThread).toMatchObject({
      status: 400,
      error: { code: 'ValidationError', fields: [{ path: 'threadId' }] },
    });
    const noRun = await run({ runId: undefined, messages: ask('Hi') });
    expect(noRun).toMatchObject({ status: 400, error: { fields: [{ path: 'runId' }] } });
    const noUser = await run({ messages: [{ id: 'a-1', role: 'assistant', content: 'Hello' }] });
    expect(noUser).toMatchObject({ status: 400, error: { fields: [{ path: 'messages' }] } });
    const editedDenial = await run({
      resume: [{ interruptId: 'x', status: 'resolved', payload: { approved: false, args: {} } }],
    });
    expect(editedDenial).toMatchObject({
      status: 400,
      error: { fields: [{ path: 'resume.0.payload.args' }] },
    });
  });

  it('starts the turn its run names, lists the thread as a session; a retried run streams the same turn; another run is refused while it runs (409)', async () => {
    const { deps, run } = api();
    const first = await run({ messages: ask('Hi') });
    expect(first.status).toBe(200);
    expect(first.events[0]).toEqual({ type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' });
    const stored = storedSession('alice', 'thread-1');
    const users = async () => (await deps.log.read(stored)).filter(({ event }) => event.type === 'user');
    expect(await users()).toHaveLength(1);
    expect((await run({ messages: ask('Hi') })).status).toBe(200);
    expect(await users()).toHaveLength(1);
    const other = await run({ runId: 'run-2', messages: ask('Again') });
    expect(other).toMatchObject({ status: 409, error: { code: 'SessionBusy' } });
    const listed = await createApi(deps).request('/sessions', { headers: { authorization: 'Bearer alice' } });
    expect(((await listed.json()) as { sessions: Array<{ session: string }> }).sessions).toEqual([
      expect.objectContaining({ session: 'thread-1', turns: 1 }),
    ]);
    // Another tenant's thread of the same id is another session.
    expect((await run({ messages: ask('Hi') }, 'bob')).status).toBe(200);
  });

  it('ends a run whose calls wait for a person as an interrupt; the next run’s resume decides them', async () => {
    const { deps, run } = api();
    await run({ messages: ask('Echo twice') });
    const stored = storedSession('alice', 'thread-1');
    const turn = idsFor('run-1', 'ag-ui\nalice\nthread-1').turn();
    const { approvals } = await stepIntoApprovals(deps, { session: stored, turn }, [
      ['echo', { text: 'a' }],
      ['echo', { text: 'b' }],
    ]);
    const interrupted = await run({ messages: ask('Echo twice') });
    const finished = interrupted.events.at(-1);
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    expect(finished.outcome.interrupts).toEqual(
      approvals.map((id, position) =>
        expect.objectContaining({
          id,
          reason: 'tool_approval',
          toolCallId: id,
          metadata: { tool: 'echo', args: { text: position === 0 ? 'a' : 'b' } },
        }),
      ),
    );
    const [first, second] = approvals as [string, string];
    const resumed = await run({
      runId: 'run-2',
      resume: [
        { interruptId: first, status: 'resolved', payload: { args: { text: 'uno' } } },
        { interruptId: second, status: 'cancelled' },
      ],
    });
    expect(resumed.status).toBe(200);
    expect(resumed.events[0]).toEqual({ type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-2' });
    const settled = (await deps.log.read(stored)).flatMap(({ event }) =>
      event.type === 'approval' && event.payload.status !== 'requested' ? [event.payload] : [],
    );
    expect(settled).toEqual([
      expect.objectContaining({ id: first, status: 'approved', by: 'alice', args: { text: 'uno' } }),
      expect.objectContaining({ id: second, status: 'denied', by: 'alice', reason: 'cancelled' }),
    ]);
    // A retried resume decides nothing twice: it follows the turn again.
    const again = await run({ runId: 'run-2', resume: [{ interruptId: first, status: 'resolved' }] });
    expect(again.status).toBe(200);
    const decisions = (await deps.log.read(stored)).filter(
      ({ event }) => event.type === 'approval' && event.payload.status !== 'requested',
    );
    expect(decisions).toHaveLength(2);
  });
});
