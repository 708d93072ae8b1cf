import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { newProject, serveInProcess } from '../support/in-process.js';
import { type ApiEvent, call, eventsOnce, type Served } from '../support/serve-client.js';

/** Files beside the CLI's agent fixtures, so the agent imports what theirs do; git ignores them. */
const fixture = (name: string) =>
  fileURLToPath(new URL(`../../packages/cli/src/testing/fixtures/${name}`, import.meta.url));
const AGENT = fixture('reloaded-agent.tmp.ts');
const SCRIPTS = { one: fixture('reloaded-one.tmp.json'), two: fixture('reloaded-two.tmp.json') };

/** The agent file at version `which`: its instructions, approvals and script differ. */
function writeAgent(which: 'one' | 'two'): void {
  const approvals = which === 'one' ? "['echo']" : '[]';
  writeFileSync(
    AGENT,
    `import { defineAgent } from '@agentstep/runtime';\nexport default defineAgent({ name: 'reloaded', instructions: 'Version ${which}.', toolsets: ['demo'], approvals: ${approvals}, script: './reloaded-${which}.tmp.json' });\n`,
  );
}

const TENANT = 'rita';
let served: Served;
let url = '';

beforeAll(async () => {
  writeFileSync(
    SCRIPTS.one,
    JSON.stringify([
      '<execute>[{"name": "echo", "args": {"text": "one"}}]</execute>',
      'Answered by one.<end>',
    ]),
  );
  writeFileSync(SCRIPTS.two, JSON.stringify(['Answered by two.<end>']));
  writeAgent('one');
  served = await serveInProcess(newProject('agent-reload'), ['--auth', 'dev', '--agent', AGENT]);
  url = served.url;
});

afterAll(async () => {
  expect(await served?.stop()).toBe(0);
  for (const file of [AGENT, ...Object.values(SCRIPTS)]) rmSync(file, { force: true });
});

const versionOf = (events: ApiEvent[]) =>
  events.find((event) => event.type === 'turn_start')?.payload?.version;
const answerOf = (events: ApiEvent[]) => events.find((event) => event.type === 'respond')?.content;
const ended = (events: ApiEvent[]) => events.some((event) => event.type === 'turn_end');

/** Starts a turn in a new session; its session, once its turn_start is logged. */
async function started(): Promise<{ session: string; events: ApiEvent[] }> {
  const { body } = await call(`${url}/sessions`, TENANT, { method: 'POST', json: { message: 'Go' } });
  const events = await eventsOnce(url, TENANT, body.session, (logged) => versionOf(logged) !== undefined);
  return { session: body.session, events };
}

describe.skipIf(dynamoEndpoint === '')('a changed agent.ts under `agentstep serve` (decision 0040)', () => {
  it('runs the new version for new turns only: a turn started before finishes on the old one', async () => {
    const before = await started();
    const oldVersion = versionOf(before.events);
    // The old version's turn waits for its echo's approval while the file changes.
    await eventsOnce(url, TENANT, before.session, (events) =>
      events.some((event) => event.type === 'approval'),
    );
    writeAgent('two');
    let after = await started();
    // serve looks at the file every 250 ms, then loads it: until then new turns still start on the old version.
    await expect
      .poll(
        async () => {
          if (versionOf(after.events) === oldVersion) after = await started();
          return versionOf(after.events);
        },
        { timeout: 60_000 },
      )
      .not.toBe(oldVersion);
    const newTurn = await eventsOnce(url, TENANT, after.session, ended);
    expect(answerOf(newTurn)).toBe('Answered by two.');
    const { body } = await call(`${url}/sessions/${before.session}/approvals`, TENANT);
    const [waiting] = body.approvals;
    await call(`${url}/sessions/${before.session}/approvals/${waiting.id}`, TENANT, {
      method: 'POST',
      json: { decision: 'approve' },
    });
    const oldTurn = await eventsOnce(url, TENANT, before.session, ended);
    expect(versionOf(oldTurn)).toBe(oldVersion);
    expect(answerOf(oldTurn)).toBe('Answered by one.');
    expect(oldTurn.at(-1)).toMatchObject({ type: 'turn_end', payload: { status: 'done' } });
  });
});
