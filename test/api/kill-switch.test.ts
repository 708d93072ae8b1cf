import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { SLEEPING_TURN } from '../support/harness.js';
import { newProject, runInProcess, serveScriptOn } from '../support/in-process.js';
import { call, eventsOnce, type Served } from '../support/serve-client.js';

const project = newProject('kill-switch');
let served: Served;
let url = '';

beforeAll(async () => {
  served = await serveScriptOn(project, 'sleeps', SLEEPING_TURN);
  url = served.url;
});

afterAll(async () => {
  await runInProcess(project, ['tenants', 'resume', '--all']);
  expect(await served?.stop()).toBe(0);
});

const types = (events: Array<Record<string, unknown>>) => events.map((event) => event.type);
const calls = (events: Array<Record<string, unknown>>) =>
  types(events).filter((type) => type === 'call').length;

/** Starts a turn for `tenant` and waits until its three sleeps run. */
async function sleepingTurn(tenant: string): Promise<string> {
  const { body } = await call(`${url}/sessions`, tenant, { method: 'POST', json: { message: 'Go' } });
  await eventsOnce(url, tenant, body.session, (events) => calls(events) === 3);
  return body.session;
}

describe.skipIf(dynamoEndpoint === '')(
  'the kill switch: agentstep tenants suspend / resume (`serve`)',
  () => {
    it('cancels a suspended tenant’s running turns (one failed result per open call), refuses its new turns 403, and leaves other tenants be', async () => {
      const [first, second, other] = [
        await sleepingTurn('mallory'),
        await sleepingTurn('mallory'),
        await sleepingTurn('olga'),
      ];
      const suspended = await runInProcess(project, [
        'tenants',
        'suspend',
        'mallory',
        '--reason',
        'runaway spend',
      ]);
      expect(suspended).toMatchObject({
        status: 0,
        stdout: 'Tenant mallory suspended: no turn starts, and its running turns are cancelled.\n',
      });
      for (const session of [first, second]) {
        const events = await eventsOnce(url, 'mallory', session, (logged) =>
          types(logged).includes('turn_end'),
        );
        expect(events.at(-1)).toMatchObject({ type: 'turn_end', payload: { status: 'cancelled' } });
        // One result for the batch's three open calls, each a failure.
        const results = events.filter((event) => event.type === 'result');
        expect(results).toHaveLength(1);
        expect(
          JSON.parse(String(results[0]?.content)).map((item: { status: string }) => item.status),
        ).toEqual(['failure', 'failure', 'failure']);
      }
      const refused = await call(`${url}/sessions`, 'mallory', {
        method: 'POST',
        json: { message: 'Again' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: 'TenantSuspended',
        message: expect.stringMatching(
          /^Tenant mallory is suspended since .* \(runaway spend\): no turn starts/,
        ),
      });
      const shown = await runInProcess(project, ['tenants', 'show', 'mallory']);
      expect(JSON.parse(shown.stdout)).toMatchObject({
        tenant: 'mallory',
        suspended: { reason: 'runaway spend', every: false },
      });
      // The CLI, for the tenant's session on the same store: exit 1 and one line saying why.
      const run = await runInProcess(project, ['run', '--tenant', 'mallory', '--json', 'Again']);
      expect(run).toMatchObject({ status: 1, stdout: '' });
      expect(run.stderr).toMatch(/^agentstep run: Tenant mallory is suspended since [^\n]*\n$/);
      // Another tenant's turn was never touched, and it still starts turns.
      expect(types(await eventsOnce(url, 'olga', other, () => true))).not.toContain('turn_end');
      await call(`${url}/sessions/${other}/cancel`, 'olga', { method: 'POST' });
      expect(
        (await call(`${url}/sessions`, 'olga', { method: 'POST', json: { message: 'Go' } })).status,
      ).toBe(202);
      // Resumed, the tenant starts turns again.
      expect((await runInProcess(project, ['tenants', 'resume', 'mallory'])).status).toBe(0);
      expect(
        (await call(`${url}/sessions`, 'mallory', { method: 'POST', json: { message: 'Go' } })).status,
      ).toBe(202);
    });

    it('--all suspends every tenant, and is resumed the same way', async () => {
      expect((await runInProcess(project, ['tenants', 'suspend', '--all'])).status).toBe(0);
      const refused = await call(`${url}/sessions`, 'nina', { method: 'POST', json: { message: 'Go' } });
      expect(refused).toMatchObject({ status: 403, body: { error: { code: 'TenantSuspended' } } });
      expect(refused.body.error.message).toMatch(/^Every tenant of this agent is suspended/);
      expect((await runInProcess(project, ['tenants', 'resume', '--all'])).status).toBe(0);
      expect(
        (await call(`${url}/sessions`, 'nina', { method: 'POST', json: { message: 'Go' } })).status,
      ).toBe(202);
    });

    it('refuses a tenants command without its tenant, exit 2', async () => {
      const { status, stderr } = await runInProcess(project, ['tenants', 'suspend']);
      expect(status).toBe(2);
      expect(stderr).toContain('tenants suspend takes one tenant, or --all.');
    });
  },
);
