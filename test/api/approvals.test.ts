import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { serveScriptInProcess } from '../support/in-process.js';
import { type ApiEvent, call, eventsOnce, readStream, type Served } from '../support/serve-client.js';

/** Every turn: one batch of a free `sleep` and two `echo` calls that wait for approval, then an answer. */
const SCRIPT = [
  batch(['sleep', { ms: 0, value: 'free' }], ['echo', { text: 'one' }], ['echo', { text: 'two' }]),
  'Done.<end>',
];

const approvals = (events: ApiEvent[]) => events.filter((event) => event.type === 'approval');
const bothRequested = (events: ApiEvent[]) => approvals(events).length >= 2;
const ended = (events: ApiEvent[]) => events.some((event) => event.type === 'turn_end');
const resultOf = (events: ApiEvent[]) =>
  JSON.parse(String(events.find((event) => event.type === 'result')?.content));

async function startTurn(url: string) {
  const { body } = await call(`${url}/sessions`, 'ann', { method: 'POST', json: { message: 'Go' } });
  await eventsOnce(url, 'ann', body.session, bothRequested);
  return body as { session: string; turn: string };
}

const decide = (url: string, session: string, id: string, json: unknown, tenant = 'ann') =>
  call(`${url}/sessions/${session}/approvals/${id}`, tenant, { method: 'POST', json });

/** The scenario: both calls wait; the first is approved with edited args, the second denied. */
async function approveAndDeny(url: string) {
  const { session, turn } = await startTurn(url);
  await decide(url, session, `${turn}.1.1`, { decision: 'approve', args: { text: 'uno' } });
  await decide(url, session, `${turn}.1.2`, { decision: 'deny', reason: 'not today' });
  return { session, turn, events: await eventsOnce(url, 'ann', session, ended) };
}

/** A logged event as two runs of the scenario must agree on it: no timestamps, expiry times or turn ids. */
function canonical(event: ApiEvent, turn: string) {
  const { timestamp: _, ...rest } = event;
  // When approvals expire and how long calls ran differ from run to run.
  const { expires_at: __, durations_ms: ___, ...payload } = rest.payload ?? {};
  return JSON.parse(JSON.stringify({ ...rest, payload }).replaceAll(turn, 'turn'));
}

describe.skipIf(dynamoEndpoint === '')(
  'approvals over the HTTP API (`agentstep serve --approve echo`)',
  () => {
    let served: Served;
    beforeAll(async () => {
      served = await serveScriptInProcess('approvals', SCRIPT, ['--approve', 'echo']);
    });
    afterAll(async () => {
      expect(await served?.stop()).toBe(0);
    });

    it('lists both waiting calls, approves one with edited args, denies the other: three results in call order, approvals in order on the stream', async () => {
      const { url } = served;
      const { session, turn } = await startTurn(url);
      expect((await call(`${url}/sessions/${session}`, 'ann')).body.status).toBe('waiting');
      const listed = await call(`${url}/sessions/${session}/approvals`, 'ann');
      expect(listed.body.approvals).toEqual([
        expect.objectContaining({ id: `${turn}.1.1`, tool: 'echo', args: { text: 'one' }, position: 1 }),
        expect.objectContaining({ id: `${turn}.1.2`, tool: 'echo', args: { text: 'two' }, position: 2 }),
      ]);
      const { requestedAt, expiresAt } = listed.body.approvals[0];
      expect(Date.parse(expiresAt) - Date.parse(requestedAt)).toBe(24 * 60 * 60 * 1000);
      expect(
        await decide(url, session, `${turn}.1.1`, { decision: 'approve', args: { text: 'uno' } }),
      ).toEqual({
        status: 200,
        body: { id: `${turn}.1.1`, decision: 'approve' },
      });
      const denied = await decide(url, session, `${turn}.1.2`, { decision: 'deny', reason: 'not today' });
      expect(denied).toEqual({ status: 200, body: { id: `${turn}.1.2`, decision: 'deny' } });
      const events = await eventsOnce(url, 'ann', session, ended);
      expect(resultOf(events)).toEqual([
        { tool: 'sleep', status: 'success', content: 'free' },
        { tool: 'echo', status: 'success', content: 'uno' },
        { tool: 'echo', status: 'failure', content: 'denied: not today' },
      ]);
      const { frames } = await readStream(`${url}/sessions/${session}/stream`, 'ann');
      const shown = frames
        .filter((frame) => frame.event === 'approval')
        .map((frame) => JSON.parse(frame.data).payload);
      expect(shown).toEqual([
        expect.objectContaining({ index: 1, status: 'requested' }),
        expect.objectContaining({ index: 2, status: 'requested' }),
        expect.objectContaining({ index: 1, status: 'approved', by: 'ann', args: { text: 'uno' } }),
        expect.objectContaining({ index: 2, status: 'denied', by: 'ann', reason: 'not today' }),
      ]);
      expect((await call(`${url}/sessions/${session}`, 'ann')).body.status).toBe('idle');
    });

    it('--chaos 0.5: the same scenario on a server that delivers tasks twice gives the same log', async () => {
      const reference = await approveAndDeny(served.url);
      const chaotic = await serveScriptInProcess('approvals-chaos', SCRIPT, [
        '--approve',
        'echo',
        '--chaos',
        '0.5',
        '--seed',
        '7',
      ]);
      try {
        const { events, turn } = await approveAndDeny(chaotic.url);
        expect(events.map((event) => canonical(event, turn))).toEqual(
          reference.events.map((event) => canonical(event, reference.turn)),
        );
      } finally {
        expect(await chaotic.stop()).toBe(0);
      }
    });

    it('refuses bad edited args (400, still waiting), a second decision (409), unknown ids and other tenants (404)', async () => {
      const { url } = served;
      const { session, turn } = await startTurn(url);
      const id = `${turn}.1.1`;
      const bad = await decide(url, session, id, { decision: 'approve', args: { text: 7 } });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'ValidationError', fields: [{ path: 'args.text' }] });
      expect((await call(`${url}/sessions/${session}/approvals`, 'ann')).body.approvals).toHaveLength(2);
      expect((await decide(url, session, id, { decision: 'approve' })).status).toBe(200);
      const twice = await decide(url, session, id, { decision: 'deny' });
      expect(twice).toMatchObject({ status: 409, body: { error: { code: 'AlreadyDecided' } } });
      const unknown = await decide(url, session, `${turn}.1.9`, { decision: 'deny' });
      expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'ApprovalNotFound' } } });
      const stranger = await decide(url, session, `${turn}.1.2`, { decision: 'approve' }, 'mallory');
      expect(stranger).toMatchObject({ status: 404, body: { error: { code: 'SessionNotFound' } } });
      expect((await decide(url, session, `${turn}.1.2`, { decision: 'approve' })).status).toBe(200);
      expect(
        resultOf(await eventsOnce(url, 'ann', session, ended)).map((item: { status: string }) => item.status),
      ).toEqual(['success', 'success', 'success']);
    });

    it('cancels a turn waiting on two approvals at once: both calls fail with `cancelled`, nothing left waiting', async () => {
      const { url } = served;
      const { session, turn } = await startTurn(url);
      const cancelled = await call(`${url}/sessions/${session}/cancel`, 'ann', { method: 'POST' });
      expect(cancelled).toEqual({ status: 202, body: { session, turn, status: 'cancelled' } });
      const events = await eventsOnce(url, 'ann', session, ended);
      // `cancelled`, not CANCELLED_CALL (what a turn closed after the grace gives a call with no
      // outcome): the waiting calls were woken and failed themselves.
      expect(resultOf(events).map((item: { content: string }) => item.content)).toEqual([
        'free',
        'cancelled',
        'cancelled',
      ]);
      expect(approvals(events).map((event) => event.payload?.status)).toEqual([
        'requested',
        'requested',
        'cancelled',
        'cancelled',
      ]);
      expect((await call(`${url}/sessions/${session}/approvals`, 'ann')).body.approvals).toEqual([]);
    });
  },
);

describe.skipIf(dynamoEndpoint === '')('an approval nobody decides (`--approval-timeout 1`)', () => {
  // Nothing races the expiry: both requests are logged with their calls, before either wait starts,
  // and the test acts only once the turn has ended. Load can delay the expiry, not change the log.
  it('fails the call with `approval timed out` after a second, and a late decision is refused', async () => {
    const served = await serveScriptInProcess('approval-timeout', SCRIPT, [
      '--approve',
      'echo',
      '--approval-timeout',
      '1',
    ]);
    try {
      const { url } = served;
      const { session, turn } = await startTurn(url);
      const events = await eventsOnce(url, 'ann', session, ended);
      expect(resultOf(events).map((item: { content: string }) => item.content)).toEqual([
        'free',
        'approval timed out',
        'approval timed out',
      ]);
      expect(
        approvals(events)
          .map((event) => event.payload?.status)
          .sort(),
      ).toEqual(['expired', 'expired', 'requested', 'requested']);
      const late = await decide(url, session, `${turn}.1.1`, { decision: 'approve' });
      expect(late).toMatchObject({ status: 409, body: { error: { code: 'AlreadyDecided' } } });
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });
});
