import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batch } from '../support/harness.js';
import { runCli } from '../support/run-cli.js';
import { call, type Served, serveScript, startServe } from '../support/serve-client.js';

/** The agent `agentstep smoke` checks, as @agentstep/cdk ships it. */
const SMOKE_AGENT = fileURLToPath(new URL('../../infra/smoke/agent.js', import.meta.url));

/** The sessions of `tenant`, each with its status. */
async function sessionsOf(url: string, tenant: string) {
  return (await call(`${url}/sessions`, tenant)).body.sessions as Array<{ session: string; status: string }>;
}

// The checks a deployed smoke stack gets, run every day against `serve` of the same agent (the
// trigger is a deployed stack's alone: here it says so, and counts as neither passed nor failed).
describe('agentstep smoke against agentstep serve of the smoke agent', () => {
  let served: Served;
  beforeAll(async () => {
    served = await startServe(
      ['--auth', 'dev', '--agent', SMOKE_AGENT],
      mkdtempSync(join(tmpdir(), 'agentstep-smoke-')),
    );
  });
  afterAll(async () => {
    expect(await served?.stop()).toBe(0);
  });

  it('passes every check, one line each, and leaves no turn running', async () => {
    const { status, stdout, stderr } = await runCli(['smoke', '--url', served.url, '--token', 'smoke']);
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.split(/\s{2,}/).slice(0, 2))).toEqual([
      ['ok', 'turn'],
      ['ok', 'parallel batch'],
      ['ok', 'approval'],
      ['ok', 'cancel'],
      ['skip', 'trigger'],
      ['ok', 'console'],
      [`smoke: 5 passed, 0 failed, 1 skipped (serve ${served.url})`],
    ]);
    expect(lines[0]).toMatch(
      /dropped after seq \d+ and resumed after it: \d+ events .*none lost or repeated/,
    );
    expect(lines[1]).toMatch(/echo \(call 2\) .* echo \(call 3\)/);
    expect(lines[2]).toMatch(/results in call order \(sleep, echo, echo\)/);
    expect(status).toBe(0);
    const sessions = await sessionsOf(served.url, 'smoke');
    expect(sessions.map(({ status }) => status)).toEqual(['idle', 'idle']);
  });
});

describe('agentstep smoke against an agent that is not the smoke agent', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveScript('smoke-wrong', ['Nothing to approve here.<end>']);
  });
  afterAll(async () => {
    expect(await served?.stop()).toBe(0);
  });

  it('fails the checks it cannot pass, with what it found, and exits 1', async () => {
    const { status, stdout } = await runCli([
      'smoke',
      '--url',
      served.url,
      '--token',
      'smoke',
      '--timeout',
      '60',
    ]);
    expect(stdout).toMatch(
      /^FAIL {2}turn +session s-\S+'s stream ended before a call waiting for approval$/m,
    );
    expect(stdout).toMatch(/^FAIL {2}parallel batch +not run: it goes on with the turn check's session$/m);
    expect(stdout).toMatch(/^smoke: 1 passed, 4 failed, 1 skipped/m);
    expect(status).toBe(1);
  });
});

describe('agentstep smoke against an agent whose every call waits for approval', () => {
  let served: Served;
  beforeAll(async () => {
    const both = batch(['sleep', { ms: 0, value: 'a' }], ['sleep', { ms: 0, value: 'b' }]);
    served = await serveScript('smoke-left', [both, 'Done.<end>'], ['--approve', 'sleep']);
  });
  afterAll(async () => {
    expect(await served?.stop()).toBe(0);
  });

  it('fails the checks that need a call beside the waiting one, then cancels the turn they left waiting', async () => {
    const { status, stdout } = await runCli(['smoke', '--url', served.url, '--token', 'smoke']);
    expect(stdout).toMatch(/^FAIL {2}parallel batch +every call of the batch waits for approval/m);
    expect(stdout).toMatch(/^FAIL {2}approval +expected one call waiting for approval, found \[/m);
    expect(stdout).not.toMatch(/cleanup/);
    expect(stdout).toMatch(/^smoke: 3 passed, 2 failed, 1 skipped/m);
    expect(status).toBe(1);
    const sessions = await sessionsOf(served.url, 'smoke');
    expect(sessions.map(({ status }) => status)).toEqual(['idle', 'idle']);
    const [left] = sessions.slice(-1);
    expect((await call(`${served.url}/sessions/${left?.session}`, 'smoke')).body.lastTurn).toMatchObject({
      status: 'cancelled',
    });
  });
});

describe('agentstep smoke called wrong', () => {
  it('documents itself in --help: both targets, every check, the exit codes', async () => {
    const { status, stdout } = await runCli(['smoke', '--help']);
    expect(stdout).toContain('agentstep smoke --stack NAME [--region R] [--token JWT] [--timeout SECONDS]');
    expect(stdout).toContain('agentstep smoke --url URL');
    for (const check of ['turn', 'parallel batch', 'approval', 'cancel', 'trigger', 'console'])
      expect(stdout).toMatch(new RegExp(`^  ${check} +\\S`, 'm'));
    expect(stdout).toMatch(/Exit code 0: no check failed; 1: one did/);
    expect(status).toBe(0);
  });

  it.each([
    [[], /give --stack NAME .* or --url URL/],
    [['--stack', 'AgentStepSmoke', '--url', 'http://127.0.0.1:1'], /one of them/],
    [['--url', 'http://127.0.0.1:1', '--timeout', '0'], /--timeout takes whole seconds/],
  ])('smoke %j exits 2 with the reason', async (args, reason) => {
    const { status, stderr } = await runCli(['smoke', ...args]);
    expect(stderr).toMatch(reason);
    expect(status).toBe(2);
  });

  it('needs a region for --stack: the AWS environment’s or --region', async () => {
    const nowhere = mkdtempSync(join(tmpdir(), 'agentstep-no-aws-'));
    const env = {
      AWS_REGION: '',
      AWS_DEFAULT_REGION: '',
      AWS_CONFIG_FILE: join(nowhere, 'config'),
      AWS_SHARED_CREDENTIALS_FILE: join(nowhere, 'credentials'),
    };
    const { status, stderr } = await runCli(['smoke', '--stack', 'AgentStepSmoke'], { env });
    expect(stderr).toMatch(/no AWS region: set AWS_REGION, give your AWS profile a region, or pass --region/);
    expect(status).toBe(1);
  });
});
