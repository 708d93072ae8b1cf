import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io/memory-io.js';
import { main } from '../main.js';
import { jsonLines } from '../testing/json-lines.js';
import { memoryProject } from '../testing/memory-project.js';
import type { RunningCommand } from '../testing/start-command.js';

const REVIEW = `NAME review
AGENT judge "You judge." REQUIRES "smart"
GOAL verdict "Judge it." USING judge
RUN r USING verdict
`;

describe('agentstep workflow run', () => {
  it('refuses with exit 2, before anything runs, a workflow whose agent REQUIRES a profile not configured', async () => {
    const io = memoryIo({ files: { Agentfile: REVIEW } });
    const args = ['workflow', 'run', 'Agentfile', '--model-profile', 'fast=scripted', '--store', 'memory'];
    expect(await main(args, io)).toBe(2);
    expect(io.err.join('')).toBe(
      'agentstep workflow: Workflow review REQUIRES model profile "smart" (agent judge), which the command line does not configure: add --model-profile smart=MODEL (MODEL as --model names one).\nRun "agentstep --help" for usage.\n',
    );
    expect(io.out).toEqual([]);
  });
});

const EXAMPLES = new URL('../../../../examples/workflows/', import.meta.url);

/** A project holding the example `name`'s Agentfile and script (`NAME.agentfile`, `NAME.script.json`). */
function exampleProject(name: string) {
  const files = [`${name}.agentfile`, `${name}.script.json`];
  return memoryProject(
    Object.fromEntries(files.map((file) => [file, readFileSync(new URL(file, EXAMPLES), 'utf8')])),
  );
}

/** `workflow run` of the example `name` with its script. */
const runArgs = (name: string) => ['workflow', 'run', `${name}.agentfile`, '--script', `${name}.script.json`];

/** The line a run prints on stderr when a `SUPERVISED HUMAN` goal waits: its goal, run and gate. */
const WAITING =
  /^\? goal (\S+) waits for a person: agentstep workflow gate (\S+) (\S+) --approve \| --correct TEXT \| --abort$/gm;

/** The goal, run and gate of the run's waiting line number `count`, once it is printed. */
function waitingGate(running: RunningCommand, count: number) {
  return running.waitFor(({ stderr }) => {
    const [goal = '', run = '', gate = ''] = [...stderr.matchAll(WAITING)][count - 1]?.slice(1) ?? [];
    return gate === '' ? undefined : { goal, run, gate };
  });
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

describe('the workflow examples run with agentstep workflow', () => {
  it('plain-goals: a later goal sees the earlier goal in <context> and its fields interpolated', async () => {
    const project = exampleProject('plain-goals');
    const { status, stdout, stderr } = await project.run(runArgs('plain-goals'));
    expect(status, stderr).toBe(0);
    const [result] = jsonLines(stdout);
    expect(result).toEqual({
      run: expect.any(String),
      status: 'done',
      message: 'All 3 goal runs completed.',
    });
    const run = String(result?.run);
    expect(stderr).toContain(`workflow release-notes: run ${run}\n`);

    expect(await project.run(['workflow', 'context', run, 'draft'])).toMatchObject({
      status: 0,
      stdout: DRAFT,
    });
    const gather = await project.run(['workflow', 'context', run, 'gather']);
    expect(gather.stdout).toContain(
      '<current-goal id="gather">\nList the three changes in AgentStep 1.4.0 that matter most to its users, one line each.\nThen name the headline change and who benefits most.\n\nReturn your response as JSON with the following fields: headline, audience\n</current-goal>',
    );
    const announce = await project.run(['workflow', 'context', run, 'announce']);
    expect(announce.stdout).toContain(
      '<current-goal id="announce">\nWrite a two-sentence announcement titled &#34;Workflows arrive in AgentStep 1.4.0&#34; that links to the release notes.\n</current-goal>',
    );
  });

  it('refuses `agentstep run --session` on a run or one of its goal sessions (exit 1, WorkflowSession), writing nothing', async () => {
    const project = exampleProject('plain-goals');
    const run = String(jsonLines((await project.run(runArgs('plain-goals'))).stdout)[0]?.run);
    const owners = [
      [run, `is workflow run ${run}`],
      [`${run}.1`, `is a goal session of workflow run ${run}`],
    ];
    for (const [session = '', owner = ''] of owners) {
      const before = await project.run(['events', session]);
      const refused = await project.run(['run', 'Hi', '--session', session]);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`agentstep run: WorkflowSession: Session ${session} ${owner}: `);
      expect(await project.run(['events', session])).toEqual(before);
    }
  });

  it('parallel-agents: each agent gets a task document and its persona; the next goal sees both outputs and the field', async () => {
    const project = exampleProject('parallel-agents');
    const { status, stdout, stderr } = await project.run(runArgs('parallel-agents'));
    expect(status, stderr).toBe(0);
    const [result] = jsonLines(stdout);
    expect(result).toMatchObject({ status: 'done' });
    const run = String(result?.run);

    const advocate = await project.run(['workflow', 'context', run, 'critique[advocate]']);
    expect(advocate.status).toBe(0);
    expect(advocate.stdout.startsWith('<task role="advocate" parent-goal="critique">\n')).toBe(true);
    expect(await project.run(['workflow', 'context', run, 'critique[skeptic]'])).toMatchObject({
      status: 0,
      stdout: SKEPTIC,
    });
    expect((await project.run(['workflow', 'context', run, 'decide'])).stdout).toBe(DECIDE);

    // The agent's persona is the system prompt of its run: the `instructions` of its user message.
    const session = sessionOf(stderr, 'critique[skeptic]');
    const [user] = jsonLines((await project.run(['events', session, '--json'])).stdout);
    expect(user).toMatchObject({
      type: 'user',
      content: SKEPTIC,
      instructions:
        'You look for what a change breaks: cost, latency, migrations.\nName the single biggest risk.',
    });
  });

  it('converge-review: the goal after CONVERGE waits for a person; a correction runs it again, an approval ends the run', async () => {
    const project = exampleProject('converge-review');
    const running = project.start(runArgs('converge-review'));
    const first = await waitingGate(running, 1);
    expect(first.goal).toBe('publish');
    expect(running.stderr()).toContain('  tighten iteration 3 … (session ');
    expect(running.stderr()).toContain('✓ goal tighten: Recording every agent step as an event');

    const unknown = await project.run(['workflow', 'gate', first.run, 'no-such-gate', '--approve']);
    expect(unknown).toMatchObject({
      status: 1,
      stderr: `agentstep workflow: GateNotFound: Workflow run ${first.run} has no human gate no-such-gate.\n`,
    });
    const corrected = await project.run([
      ...['workflow', 'gate', first.run, first.gate],
      ...['--correct', 'Make the title a question.'],
    ]);
    expect(corrected).toMatchObject({
      status: 0,
      stdout: `Gate ${first.gate} of run ${first.run}: correct.\n`,
    });

    const second = await waitingGate(running, 2);
    // The run's own view shows the answer given by the other command.
    expect(running.stderr()).toMatch(new RegExp(`\\n  gate ${first.gate} corrected by \\S+\\n`));
    expect(second).toMatchObject({ goal: 'publish', run: first.run });
    expect(second.gate).not.toBe(first.gate);
    const approved = await project.run(['workflow', 'gate', second.run, second.gate, '--approve']);
    expect(approved).toMatchObject({
      status: 0,
      stdout: `Gate ${second.gate} of run ${second.run}: approve.\n`,
    });

    expect(await running.exited).toBe(0);
    expect(jsonLines(running.stdout())).toEqual([
      { run: first.run, status: 'done', message: 'All 2 goal runs completed.' },
    ]);
    expect(running.stderr()).toContain('✓ goal publish: Why Do Agents Remember Every Step?');
    expect(await project.run(['workflow', 'context', first.run, 'publish'])).toMatchObject({
      status: 0,
      stdout: PUBLISH,
    });

    const again = await project.run(['workflow', 'gate', second.run, second.gate, '--approve']);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^agentstep workflow: AlreadyDecided: /);
  });
});
