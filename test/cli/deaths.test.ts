import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runningDynamoDbLocals } from '@agentstep/local';
import { readUntil } from '@agentstep/runtime/testing';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import {
  type ApiEvent,
  approveWaiting,
  call,
  eventsOnce,
  type Served,
  startServe,
} from '../support/serve-client.js';

const TENANT = 'erin';

/** A new project folder holding the scripts by file name. */
function project(scripts: Record<string, unknown[]>): string {
  const cwd = mkdtempSync(join(tmpdir(), 'agentstep-deaths-'));
  for (const [file, script] of Object.entries(scripts))
    writeFileSync(join(cwd, file), JSON.stringify(script));
  return cwd;
}

/**
 * A turn whose one call waits for an approval (`--approve sleep`: every turn plays the script from
 * its start) until the store or the server dies under it.
 */
async function waitingTurn(served: Served): Promise<{ session: string; turn: string }> {
  const { status, body } = await call(`${served.url}/sessions`, TENANT, {
    method: 'POST',
    json: { message: 'Go' },
  });
  expect(status).toBe(202);
  await eventsOnce(served.url, TENANT, body.session, (events) =>
    events.some(({ type }) => type === 'approval'),
  );
  return body;
}

/** The turn ended failed in the log, its one call answered with a failure. */
function expectClosedFailed(events: ApiEvent[], turn: string) {
  const end = events.find((event) => event.type === 'turn_end' && event.payload?.turn === turn);
  expect(end?.payload).toMatchObject({ status: 'failed' });
  const results = events.filter((event) => event.type === 'result');
  expect(results).toHaveLength(1);
  expect(JSON.parse(String(results[0]?.content))).toEqual([expect.objectContaining({ status: 'failure' })]);
}

/** A new message to the session runs to `done` (its call approved, when the server asks for approvals). */
async function nextMessageCompletes(url: string, session: string, options: { approve?: boolean } = {}) {
  const sent = await call(`${url}/sessions/${session}/messages`, TENANT, {
    method: 'POST',
    json: { message: 'Again' },
  });
  expect(sent.status).toBe(202);
  if (options.approve) await approveWaiting(url, TENANT, session);
  const events = await eventsOnce(url, TENANT, session, (logged) =>
    logged.some((event) => event.type === 'turn_end' && event.payload?.turn === sent.body.turn),
  );
  expect(events.at(-1)?.payload).toMatchObject({ turn: sent.body.turn, status: 'done' });
}

// What only processes can prove: a store or a server that dies, and what the next one finds.
describe.skipIf(dynamoEndpoint === '')('deaths under `agentstep serve` (the real binary)', () => {
  it('DynamoDB Local killed mid-turn: 503 StoreUnavailable, then serve rejoins it by itself; the turn ends failed; the next message completes', async () => {
    const cwd = project({ 'script.json': [batch(['sleep', { ms: 1, value: 'slept' }]), 'Done.<end>'] });
    const served = await startServe(['--auth', 'dev', '--script', 'script.json', '--approve', 'sleep'], cwd);
    try {
      const { session, turn } = await waitingTurn(served);
      const [java] = runningDynamoDbLocals(join(cwd, '.agentstep', 'dynamodb'));
      if (java === undefined) throw new Error('No DynamoDB Local runs on the folder.');
      process.kill(java, 'SIGKILL');
      const killedAt = Date.now();
      // The store's port is closed with its process: until serve has joined the next one, this fails.
      const refused = await call(`${served.url}/sessions/${session}`, TENANT);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ error: { code: 'StoreUnavailable', message: expect.any(String) } });

      const events = await readUntil(
        async () => call(`${served.url}/sessions/${session}/events`, TENANT),
        ({ status, body }) => status === 200 && body.events.some(({ type }: ApiEvent) => type === 'turn_end'),
      );
      // The bound (about 3 s here idle): a hang, not load, would pass it.
      expect(Date.now() - killedAt).toBeLessThan(30_000);
      expectClosedFailed(events.body.events, turn);
      expect((await call(`${served.url}/sessions/${session}`, TENANT)).body).toMatchObject({
        status: 'idle',
      });
      await nextMessageCompletes(served.url, session, { approve: true });
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it('serve killed mid-turn (SIGKILL) and started again: the session is free at once, its turn closed; a new message completes', async () => {
    const cwd = project({
      'waiting.json': [batch(['sleep', { ms: 1, value: 'slept' }])],
      'answer.json': ['Done.<end>'],
    });
    const first = await startServe(['--auth', 'dev', '--script', 'waiting.json', '--approve', 'sleep'], cwd);
    const { session, turn } = await waitingTurn(first);
    const killed = first.stop('SIGKILL');
    expect(await killed).toBeNull();

    const again = await startServe(['--auth', 'dev', '--script', 'answer.json'], cwd);
    try {
      // Closed before it listened: the first answer already tells.
      expect((await call(`${again.url}/sessions/${session}`, TENANT)).body).toMatchObject({ status: 'idle' });
      const { body } = await call(`${again.url}/sessions/${session}/events`, TENANT);
      expectClosedFailed(body.events, turn);
      expect(body.events.at(-1).content).toMatch(/ended with its process \(pid \d+\)/);
      await nextMessageCompletes(again.url, session);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  });
});
