import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { jsonLines, runCliAsync, startCli } from '../support/run-cli.js';

const examples = fileURLToPath(new URL('../../examples/workflows/', import.meta.url));
/** The line a run prints on stderr when a `SUPERVISED HUMAN` goal waits: its goal, run and gate. */
const WAITING =
  /^\? goal (\S+) waits for a person: agentstep workflow gate (\S+) (\S+) --approve \| --correct TEXT \| --abort$/gm;

/** A fresh project folder: the processes started in it share its own `.agentstep/` store. */
function projectFolder(): string {
  return mkdtempSync(join(tmpdir(), 'agentstep-workflow-examples-'));
}

/** `agentstep workflow run` of an example with its script, in `cwd`, without blocking this process. */
function runExample(name: string, cwd: string) {
  return runCliAsync(workflowRunArgs(name), cwd);
}

/** `workflow run` of the example `name`, by absolute paths: it runs from any folder. */
function workflowRunArgs(name: string): string[] {
  return [
    'workflow',
    'run',
    join(examples, `${name}.agentfile`),
    '--script',
    join(examples, `${name}.script.json`),
  ];
}

/** A background `workflow run` of an example, whose stderr can be read while it runs. */
function startExample(name: string, cwd: string) {
  return startCli(workflowRunArgs(name), cwd);
}

/** Resolves with the goal, run and gate of the run's waiting line number `count`, once it is printed. */
async function waitingGate(run: ReturnType<typeof startExample>, count: number) {
  for (let waited = 0; waited < 90_000; waited += 100) {
    const [goal = '', runId = '', gate = ''] = [...run.stderr().matchAll(WAITING)][count - 1]?.slice(1) ?? [];
    if (gate !== '') return { goal, run: runId, gate };
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no waiting line ${count} in the run's output: ${run.stdout()}\n${run.stderr()}`);
}

/** The child session a goal's run started in, as the live view names it (`goal execute … (session S)`). */
function sessionOf(stderr: string, goal: string): string {
  const line = stderr.split('\n').find((text) => text.startsWith(`  ${goal} execute … (session `));
  return /\(session (\S+)\)$/.exec(line ?? '')?.[1] ?? '';
}

const DRAFT = `<workflow name="release-notes">

<context>
  <goal id="gather">
1. Multi-goal workflows written as Agentfiles.
2. Human gates that wait for a person.
3. Workflow runs that resume after a crash.
{&#34;headline&#34;: &#34;multi-goal workflows&#34;, &#34;audience&#34;: &#34;platform teams&#34;}
  </goal>

</context>

<current-goal id="draft">
Write the release notes of AgentStep 1.4.0 for platform teams, leading with multi-goal workflows.

Return your response as JSON with the following fields: title
</current-goal>

</workflow>`;

const SKEPTIC = `<task role="skeptic" parent-goal="critique">
<objective>
Review the proposal to move the session store from DynamoDB to S3.

Return your response as JSON with the following fields: risk
</objective>
</task>`;

const DECIDE = `<workflow name="design-review">

<context>
  <goal id="critique[advocate]">
S3 removes capacity planning and costs less per stored GB. One bucket replaces a table and its autoscaling.
  </goal>

  <goal id="critique[skeptic]">
Reading a session is one query today; on S3 it is a list plus a read per object, so resuming a long session gets slower.
{&#34;risk&#34;: &#34;slower session reads on resume&#34;}
  </goal>

</context>

<current-goal id="decide">
Decide whether to move the session store from DynamoDB to S3. Deal with this risk first: slower session reads on resume.

Return your response as JSON with the following fields: decision
</current-goal>

</workflow>`;

const PUBLISH = `<workflow name="abstract-editor">

<context>
  <goal id="tighten">
Recording every agent step as an event lets a serverless runtime stop, resume and explain any run at a cost of cents.
  </goal>

</context>

<current-goal id="publish">
Give the final abstract a title line, then the abstract.
</current-goal>

<correction source="human">
Make the title a question.
</correction>

</workflow>`;

describe.skipIf(dynamoEndpoint === '')('the workflow examples run with the agentstep CLI', () => {
  it('plain-goals: a later goal sees the earlier goal in <context> and its fields interpolated', async () => {
    const cwd = projectFolder();
    const { status, stdout, stderr } = await runExample('plain-goals', cwd);
    expect(status, stderr).toBe(0);
    const [result] = jsonLines(stdout);
    expect(result).toEqual({
      run: expect.any(String),
      status: 'done',
      message: 'All 3 goal runs completed.',
    });
    const run = String(result?.run);
    expect(stderr).toContain(`workflow release-notes: run ${run}\n`);

    const draft = await runCliAsync(['workflow', 'context', run, 'draft'], cwd);
    expect(draft).toMatchObject({ status: 0, stdout: DRAFT });
    const gather = await runCliAsync(['workflow', 'context', run, 'gather'], cwd);
    expect(gather.stdout).toContain(
      '<current-goal id="gather">\nList the three changes in AgentStep 1.4.0 that matter most to its users, one line each.\nThen name the headline change and who benefits most.\n\nReturn your response as JSON with the following fields: headline, audience\n</current-goal>',
    );
    const announce = await runCliAsync(['workflow', 'context', run, 'announce'], cwd);
    expect(announce.stdout).toContain(
      '<current-goal id="announce">\nWrite a two-sentence announcement titled &#34;Workflows arrive in AgentStep 1.4.0&#34; that links to the release notes.\n</current-goal>',
    );
  }, 180_000);

  it('parallel-agents: each agent gets a task document and its persona; the next goal sees both outputs and the field', async () => {
    const cwd = projectFolder();
    const { status, stdout, stderr } = await runExample('parallel-agents', cwd);
    expect(status, stderr).toBe(0);
    const [result] = jsonLines(stdout);
    expect(result).toMatchObject({ status: 'done' });
    const run = String(result?.run);

    const advocate = await runCliAsync(['workflow', 'context', run, 'critique[advocate]'], cwd);
    expect(advocate.status).toBe(0);
    expect(advocate.stdout.startsWith('<task role="advocate" parent-goal="critique">\n')).toBe(true);
    expect(await runCliAsync(['workflow', 'context', run, 'critique[skeptic]'], cwd)).toMatchObject({
      status: 0,
      stdout: SKEPTIC,
    });
    expect((await runCliAsync(['workflow', 'context', run, 'decide'], cwd)).stdout).toBe(DECIDE);

    // The agent's persona is the system prompt of its run: the `instructions` of its user message.
    const session = sessionOf(stderr, 'critique[skeptic]');
    const [user] = jsonLines((await runCliAsync(['events', session, '--json'], cwd)).stdout);
    expect(user).toMatchObject({
      type: 'user',
      content: SKEPTIC,
      instructions:
        'You look for what a change breaks: cost, latency, migrations.\nName the single biggest risk.',
    });
  }, 180_000);

  it('converge-review: the goal after CONVERGE waits for a person; a correction runs it again, an approval ends the run', async () => {
    const cwd = projectFolder();
    const running = startExample('converge-review', cwd);
    const first = await waitingGate(running, 1);
    expect(first.goal).toBe('publish');
    expect(running.stderr()).toContain('  tighten iteration 3 … (session ');
    expect(running.stderr()).toContain('✓ goal tighten: Recording every agent step as an event');

    const unknown = await runCliAsync(['workflow', 'gate', first.run, 'no-such-gate', '--approve'], cwd);
    expect(unknown).toMatchObject({
      status: 1,
      stderr: `agentstep workflow: GateNotFound: Workflow run ${first.run} has no human gate no-such-gate.\n`,
    });
    const corrected = await runCliAsync(
      ['workflow', 'gate', first.run, first.gate, '--correct', 'Make the title a question.'],
      cwd,
    );
    expect(corrected).toMatchObject({
      status: 0,
      stdout: `Gate ${first.gate} of run ${first.run}: correct.\n`,
    });

    const second = await waitingGate(running, 2);
    // The run's own view shows the answer given from the other shell.
    expect(running.stderr()).toMatch(new RegExp(`\\n  gate ${first.gate} corrected by \\S+\\n`));
    expect(second).toMatchObject({ goal: 'publish', run: first.run });
    expect(second.gate).not.toBe(first.gate);
    const approved = await runCliAsync(['workflow', 'gate', second.run, second.gate, '--approve'], cwd);
    expect(approved).toMatchObject({
      status: 0,
      stdout: `Gate ${second.gate} of run ${second.run}: approve.\n`,
    });

    expect(await running.exited).toBe(0);
    expect(jsonLines(running.stdout())).toEqual([
      { run: first.run, status: 'done', message: 'All 2 goal runs completed.' },
    ]);
    expect(running.stderr()).toContain('✓ goal publish: Why Do Agents Remember Every Step?');
    const publish = await runCliAsync(['workflow', 'context', first.run, 'publish'], cwd);
    expect(publish).toMatchObject({ status: 0, stdout: PUBLISH });

    const again = await runCliAsync(['workflow', 'gate', second.run, second.gate, '--approve'], cwd);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^agentstep workflow: AlreadyDecided: /);
  }, 180_000);
});
