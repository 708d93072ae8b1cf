import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { jsonLines, runCliAsync, startCli } from '../support/run-cli.js';
import { call, type Served, startServe } from '../support/serve-client.js';

/** One model step calling `echo` twice, each call waiting for approval, then the answer. */
const ECHO_TWICE = [batch(['echo', { text: 'one' }], ['echo', { text: 'two' }]), 'Done.<end>'];
const WAITING = /⏸ #\d echo \S+ waits for approval \(id (\S+)\): agentstep approve (\S+) \S+ \[--deny\]/g;

/** A project folder with the script: every process started in it shares its `.agentstep/` store. */
let cwd = '';

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'agentstep-approvals-cli-'));
  writeFileSync(join(cwd, 'echo-twice.json'), JSON.stringify(ECHO_TWICE));
});

/** A background `agentstep run` of `session` (not a terminal: it asks nothing), and its output so far. */
function startRun(session: string, ...args: string[]) {
  const run = ['run', '--session', session, '--script', 'echo-twice.json', '--mode', 'event', ...args];
  return startCli(run, cwd);
}

/** Resolves with the ids of the calls the run's view says wait for approval, once `count` did. */
async function waitingIds(run: ReturnType<typeof startRun>, count: number): Promise<string[]> {
  for (let waited = 0; waited < 90_000; waited += 100) {
    const ids = [...run.stdout().matchAll(WAITING)].map((match) => match[1] ?? '');
    if (ids.length >= count) return ids;
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${count} waiting calls in the run's output: ${run.stdout()}\n${run.stderr()}`);
}

/** `agentstep` in the project folder. */
const agentstep = (...args: string[]) => runCliAsync(args, cwd);

describe.skipIf(dynamoEndpoint === '')('agentstep approvals and approve on the local store', () => {
  it('decide the calls a run in another process waits on: one approved with edited args, one denied', async () => {
    const run = startRun('waits', '--approve', 'echo');
    const [first = '', second = ''] = await waitingIds(run, 2);
    expect(run.stdout()).toContain(`agentstep approve waits ${first} [--deny]`);

    const listed = await agentstep('approvals', 'waits');
    expect(listed.status).toBe(0);
    expect(listed.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^${first.replaceAll('.', '\\.')}  echo \\{"text":"one"\\}  requested `),
      ),
      expect.stringMatching(
        new RegExp(`^${second.replaceAll('.', '\\.')}  echo \\{"text":"two"\\}  requested `),
      ),
    ]);
    const json = JSON.parse((await agentstep('approvals', 'waits', '--json')).stdout);
    expect(json.approvals.map((approval: { id: string }) => approval.id)).toEqual([first, second]);

    const refused = await agentstep('approve', 'waits', first, '--args', '{"text": 1}');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /^agentstep approve: ValidationError: Invalid arguments for echo: text: .+\n$/,
    );

    expect(await agentstep('approve', 'waits', first, '--args', '{"text": "edited"}')).toMatchObject({
      status: 0,
      stdout: `Approved ${first} with the edited arguments: the call runs now.\n`,
    });
    const denied = await agentstep('approve', 'waits', second, '--deny', '--reason', 'nope', '--json');
    expect(denied.status).toBe(0);
    expect(JSON.parse(denied.stdout)).toEqual({ id: second, decision: 'deny' });

    expect(await run.exited).toBe(0);
    expect(run.stdout()).toMatch(/✓ #0 echo approved by \S+ with \{"text":"edited"\}/);
    expect(run.stdout()).toMatch(/✗ #1 echo denied by \S+: nope/);

    const again = await agentstep('approve', 'waits', first, '--deny');
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(
      /^agentstep approve: AlreadyDecided: Approval \S+ is already settled \(approved\)[^\n]*\n$/,
    );
    expect((await agentstep('approvals', 'waits')).stdout).toBe(
      'No call of session waits waits for approval.\n',
    );

    const events = jsonLines((await agentstep('events', 'waits', '--json')).stdout);
    const result = events.find((event) => event.type === 'result');
    expect(JSON.parse(String(result?.content))).toEqual([
      { tool: 'echo', status: 'success', content: 'edited' },
      { tool: 'echo', status: 'failure', content: 'denied: nope' },
    ]);
    expect(events.filter((event) => event.type === 'approval').map((event) => event.payload)).toEqual([
      expect.objectContaining({ id: first, status: 'requested' }),
      expect.objectContaining({ id: second, status: 'requested' }),
      expect.objectContaining({ id: first, status: 'approved', args: { text: 'edited' } }),
      expect.objectContaining({ id: second, status: 'denied', reason: 'nope' }),
    ]);
  }, 180_000);

  it('refuses a session that does not exist and an unknown approval in one line, exit 1', async () => {
    const missing = await agentstep('approvals', 'no-such-session');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(
      /^agentstep approvals: SessionNotFound: Session no-such-session has no events in .+\n$/,
    );
    const unknown = await agentstep('approve', 'waits', 'no.such.0');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(
      /^agentstep approve: ApprovalNotFound: .+`agentstep approvals waits` lists/,
    );
  });

  it('a run whose call nobody decides in --approval-timeout says it expired', async () => {
    const run = startRun('expires', '--approve', 'echo', '--approval-timeout', '1');
    expect(await run.exited).toBe(0);
    expect(run.stdout().match(/⌛ #\d echo expired: nobody decided in time/g)).toHaveLength(2);
  }, 180_000);
});

describe.skipIf(dynamoEndpoint === '')('agentstep approvals and approve --url on a running serve', () => {
  let served: Served;

  beforeAll(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agentstep-approvals-serve-'));
    writeFileSync(join(folder, 'echo-twice.json'), JSON.stringify(ECHO_TWICE));
    served = await startServe(['--auth', 'dev', '--script', 'echo-twice.json', '--approve', 'echo'], folder);
  }, 120_000);

  afterAll(() => served?.stop());

  it('lists and decides as the bearer tenant; the turn ends with both results', async () => {
    const started = await call(`${served.url}/sessions`, 'alice', {
      method: 'POST',
      json: { message: 'Echo' },
    });
    const session: string = started.body.session;
    const env = { AGENTSTEP_URL: served.url };
    const list = async () => {
      for (let waited = 0; waited < 60_000; waited += 200) {
        const listed = await runCliAsync(['approvals', session, '--json', '--token', 'alice'], cwd, env);
        const { approvals } = JSON.parse(listed.stdout) as { approvals: Array<{ id: string }> };
        if (approvals.length === 2) return approvals.map(({ id }) => id);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('the calls never waited for approval');
    };
    const [first = '', second = ''] = await list();
    const asBob = await runCliAsync(['approve', session, first, '--token', 'bob'], cwd, env);
    expect(asBob.status).toBe(1);
    expect(asBob.stderr).toMatch(/^agentstep approve: SessionNotFound: /);
    expect((await runCliAsync(['approve', session, first, '--token', 'alice'], cwd, env)).status).toBe(0);
    const denied = await runCliAsync(['approve', session, second, '--deny', '--token', 'alice'], cwd, env);
    expect(denied.stdout).toBe(`Denied ${second}: the model reads the denial.\n`);
    for (let waited = 0; waited < 60_000; waited += 200) {
      if ((await call(`${served.url}/sessions/${session}`, 'alice')).body.status === 'idle') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const { body } = await call(`${served.url}/sessions/${session}/events`, 'alice');
    const approvals = body.events.filter((event: { type: string }) => event.type === 'approval');
    expect(approvals.map((event: { payload: { status: string; by?: string } }) => event.payload)).toEqual([
      expect.objectContaining({ status: 'requested' }),
      expect.objectContaining({ status: 'requested' }),
      expect.objectContaining({ id: first, status: 'approved', by: 'alice' }),
      expect.objectContaining({ id: second, status: 'denied', by: 'alice' }),
    ]);
  }, 180_000);
});
