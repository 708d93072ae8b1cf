import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { newProject, runInProcess, serveScriptOn } from '../support/in-process.js';
import { call, eventsOnce, type Served } from '../support/serve-client.js';

/** Every model step reports 1,000 input and 100 output tokens: $0.003 at the prices below, less than it reserves. */
const USAGE = { inputTokens: 1_000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 };
const PRICES = { scripted: { input: 2, output: 10 } };
/** Every turn: a batch of one echo, then an answer: two steps, $0.006. */
const SCRIPT = [
  { chunks: [batch(['echo', { text: 'hi' }])], usage: USAGE },
  { chunks: ['Done.<end>'], usage: USAGE },
];
const CEILING_USD = 0.05;
const SESSIONS = 20;

const project = newProject('tenant-ceiling');
let served: Served;
let url = '';

beforeAll(async () => {
  writeFileSync(join(project.cwd, 'prices.json'), JSON.stringify(PRICES));
  served = await serveScriptOn(project, 'priced', SCRIPT, [
    ...['--prices', 'prices.json', '--tenant-ceiling', String(CEILING_USD)],
  ]);
  url = served.url;
});

afterAll(async () => {
  expect(await served?.stop()).toBe(0);
});

/**
 * Starts a turn of `tenant` in a new session and waits for its end: the session and how it ended,
 * or `refused` when the ceiling was reached before it could start (429).
 */
async function turnOf(tenant: string): Promise<{ session: string; status: unknown }> {
  const { status, body } = await call(`${url}/sessions`, tenant, { method: 'POST', json: { message: 'Go' } });
  if (status === 429) return { session: '', status: 'refused' };
  const events = await eventsOnce(url, tenant, body.session, (logged) =>
    logged.some((event) => event.type === 'turn_end'),
  );
  return { session: body.session, status: events.at(-1)?.payload?.status };
}

describe.skipIf(dynamoEndpoint === '')('a tenant spend ceiling (`serve --tenant-ceiling`)', () => {
  it('holds 20 concurrent sessions of one tenant to it, then answers 429; another tenant runs meanwhile', async () => {
    const [ceilinged, other] = await Promise.all([
      Promise.all(Array.from({ length: SESSIONS }, () => turnOf('carol'))),
      turnOf('dave'),
    ]);
    // Each step reserves its estimate (more than it costs) before it calls the model: the steps
    // reserved past the ceiling ended their turns `limit` (and, once one had, the turns that had not
    // started yet were refused), and what was spent stays within it.
    const statuses = ceilinged.map((turn) => turn.status);
    expect(statuses).toContain('limit');
    expect(statuses).toContain('done');
    expect(statuses.every((status) => ['done', 'limit', 'refused'].includes(String(status)))).toBe(true);
    const { body: listed } = await call(`${url}/sessions?limit=50`, 'carol');
    expect(listed.totals.costUsd).toBeLessThanOrEqual(CEILING_USD);
    const shown = JSON.parse((await runInProcess(project, ['tenants', 'show', 'carol'])).stdout);
    expect(shown.spentUsd.day).toBeCloseTo(listed.totals.costUsd, 9);
    const refused = await fetch(`${url}/sessions`, {
      method: 'POST',
      headers: { authorization: 'Bearer carol', 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'More' }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatchObject({
      code: 'TenantCeilingReached',
      message: expect.stringMatching(
        /^No turn starts: the tenant's ceiling of \$0\.05 a day is reached; it resets at /,
      ),
    });
    expect(other.status).toBe('done');
    expect((await turnOf('dave')).status).toBe('done');
    // The CLI, for the tenant's session on the same store: exit 3 and one line saying why.
    const ceiling = ['--tenant-ceiling', String(CEILING_USD), '--prices', 'prices.json'];
    const run = await runInProcess(project, ['run', '--tenant', 'carol', ...ceiling, '--json', 'More']);
    expect(run).toMatchObject({ status: 3, stdout: '' });
    expect(run.stderr).toMatch(
      /^agentstep run: No turn starts: the tenant's ceiling of \$0\.05 a day is reached; [^\n]*\n$/,
    );
  });

  it('takes a tenant’s own ceiling over the default, set by an operator, and the default again without it', async () => {
    const setCeiling = (...flags: string[]) =>
      runInProcess(project, ['tenants', 'set-ceiling', 'erin', ...flags]);
    expect((await setCeiling('--usd-per-day', '0.001')).status).toBe(0);
    // Its first step's estimate does not fit: the turn ends before it calls the model.
    const limited = await turnOf('erin');
    expect(limited.status).toBe('limit');
    const events = await eventsOnce(url, 'erin', limited.session, () => true);
    expect(events.at(-1)?.content).toMatch(/^TenantCeilingReached: the tenant's ceiling of \$0\.001 a day/);
    expect((await setCeiling('--none')).stdout).toBe('Tenant erin has no ceiling of its own.\n');
    // Model steps read a tenant's controls at most once a second: the default holds within one.
    await expect.poll(async () => (await turnOf('erin')).status, { timeout: 10_000 }).toBe('done');
  });

  it('holds a ceiling in tokens (input + output as used), set by an operator', async () => {
    const set = await runInProcess(project, ['tenants', 'set-ceiling', 'frank', '--tokens-per-day', '2000']);
    expect(set.stdout).toBe('Tenant frank\'s ceiling set: {"tokensPerDay":2000}.\n');
    // Its first step uses 1,100 tokens; the second's reservation (its input and 1,024) does not fit.
    const limited = await turnOf('frank');
    expect(limited.status).toBe('limit');
    const events = await eventsOnce(url, 'frank', limited.session, () => true);
    expect(events.at(-1)?.content).toMatch(
      /^TenantCeilingReached: the tenant's ceiling of 2000 tokens a day/,
    );
    const refused = await call(`${url}/sessions`, 'frank', { method: 'POST', json: { message: 'More' } });
    expect(refused.status).toBe(429);
    const shown = JSON.parse((await runInProcess(project, ['tenants', 'show', 'frank'])).stdout);
    expect(shown).toMatchObject({ ceiling: { tokensPerDay: 2000 }, spentTokens: { day: 1_100 } });
  });
});
