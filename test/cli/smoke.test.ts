import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('agentstep smoke called wrong', () => {
  it.each([
    [[], /give --stack NAME .* or --url URL/],
    [['--stack', 'AgentStepSmoke', '--url', 'http://127.0.0.1:1'], /one of them/],
    [['--url', 'http://127.0.0.1:1', '--timeout', '0'], /--timeout takes whole seconds/],
  ])('smoke %j exits 2 with the reason', async (args, reason) => {
    const { status, stderr } = await runCli(['smoke', ...args]);
    expect(stderr).toMatch(reason);
    expect(status).toBe(2);
  });

  it('needs a region for --stack: AWS_REGION, AWS_DEFAULT_REGION or --region', async () => {
    const env = { AWS_REGION: '', AWS_DEFAULT_REGION: '' };
    const { status, stderr } = await runCli(['smoke', '--stack', 'AgentStepSmoke'], { env });
    expect(stderr).toMatch(/--stack needs a region: set AWS_REGION/);
    expect(status).toBe(2);
  });
});
