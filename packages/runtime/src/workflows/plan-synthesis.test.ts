import { parseAgentfile, type WorkflowRecord, type WorkflowSpec } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import type { Plan } from './plan.js';
import { planWorkflow } from './plan-workflow.js';
import type { Logged, RunLog } from './run-log.js';

const DECIDE = `
NAME decide
INPUT place DEFAULT "Kubernetes"
AGENT optimist "You see what is good."
AGENT critic "You see what can go wrong." -> risk REQUIRES "fast"
GOAL frame "Frame the move to $place."
GOAL evaluate "Evaluate the move." -> verdict USING optimist, critic
GOAL report "Report on it, avoiding $risk."
RUN r USING frame, evaluate, report
`;

/** The Agentfile language has no keyword for it: a spec sets `synthesize` on its USING goals. */
function withSynthesis(source: string, synthesize = true): WorkflowSpec {
  const parsed = parseAgentfile(source);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const goals = parsed.spec.goals.map((goal) => (goal.using.length > 0 ? { ...goal, synthesize } : goal));
  return { ...parsed.spec, goals };
}

/** A run's log, as `records` in order; the start record first. */
class Log {
  readonly records: Logged[] = [];
  #runs = 0;

  constructor(readonly spec: WorkflowSpec) {
    this.add({ kind: 'start', spec, inputs: { place: 'Kubernetes' } }, spec.name);
  }

  add(record: WorkflowRecord, content = ''): this {
    this.records.push({ seq: this.records.length + 1, record, content } as Logged);
    return this;
  }

  /** Starts the runs a plan asks for (by execution `execution`) and returns their sessions. */
  start(plan: Plan, execution = 'x1'): string[] {
    if (plan.kind !== 'runs') throw new Error(`Expected runs, planned ${JSON.stringify(plan)}`);
    return plan.runs.map(({ message: _, instructions: __, session, ...ids }) => {
      this.#runs += 1;
      const started = { ...ids, session: session ?? `wf.${this.#runs}`, turn: `t-${this.#runs}`, execution };
      this.add({ kind: 'run', ...started });
      return started.session;
    });
  }

  /** How the latest run in `session` ended. */
  end(session: string, content: string, status: 'done' | 'failed' | 'abandoned' = 'done'): this {
    const run = this.records.findLast(({ record }) => record.kind === 'run' && record.session === session);
    if (run?.record.kind !== 'run') throw new Error(`No run in session ${session}.`);
    return this.add({ ...run.record, kind: 'output', status }, content);
  }

  /** Appends the records a `record` plan asks for. */
  apply(plan: Plan): this {
    if (plan.kind !== 'record') throw new Error(`Expected records, planned ${JSON.stringify(plan)}`);
    for (const { record, content } of plan.records) this.add(record, content);
    return this;
  }

  get run(): RunLog {
    return { run: 'wf-1', spec: this.spec, inputs: { place: 'Kubernetes' }, records: this.records };
  }
}

/** The log once `frame` completed and both agents of `evaluate` answered. */
function afterAgents(): Log {
  const log = new Log(withSynthesis(DECIDE));
  const [frame = ''] = log.start(planWorkflow(log.run));
  log.end(frame, 'Move to Kubernetes?').apply(planWorkflow(log.run));
  const [optimist = '', critic = ''] = log.start(planWorkflow(log.run));
  log.end(optimist, 'It <scales>.');
  log.end(critic, 'Costs & "complexity". {"risk": "ops load"}');
  return log;
}

const SYNTHESIS = `<synthesis goal="evaluate">
Agents worked on the current goal below, each on its own; their outputs are in <context> as evaluate[optimist], evaluate[critic].
Merge them into one response to the current goal: keep what they agree on, settle where they differ, and drop nothing that matters. Answer with the merged response only.
</synthesis>

<workflow name="decide">

<context>
  <goal id="frame">
Move to Kubernetes?
  </goal>

  <goal id="evaluate[optimist]">
It &lt;scales&gt;.
  </goal>

  <goal id="evaluate[critic]">
Costs &amp; &#34;complexity&#34;. {&#34;risk&#34;: &#34;ops load&#34;}
  </goal>

</context>

<current-goal id="evaluate">
Evaluate the move.

Return your response as JSON with the following fields: verdict
</current-goal>

</workflow>`;

const REPORT = `<workflow name="decide">

<context>
  <goal id="frame">
Move to Kubernetes?
  </goal>

  <goal id="evaluate[optimist]">
It &lt;scales&gt;.
  </goal>

  <goal id="evaluate[critic]">
Costs &amp; &#34;complexity&#34;. {&#34;risk&#34;: &#34;ops load&#34;}
  </goal>

  <goal id="evaluate">
Go, slowly. {&#34;verdict&#34;: &#34;go&#34;}
  </goal>

</context>

<current-goal id="report">
Report on it, avoiding ops load.
</current-goal>

</workflow>`;

describe('planWorkflow: a goal that synthesizes its agents, one of which REQUIRES a profile', () => {
  it('runs the agents, then one synthesis of both outputs, then completes with the agents and the merged output', () => {
    const log = new Log(withSynthesis(DECIDE));
    const [frame = ''] = log.start(planWorkflow(log.run));
    log.end(frame, 'Move to Kubernetes?').apply(planWorkflow(log.run));
    const agents = planWorkflow(log.run);
    expect(
      agents.kind === 'runs' && agents.runs.map(({ phase, agent, model }) => [phase, agent, model ?? null]),
    ).toEqual([
      ['execute', 'optimist', null],
      ['execute', 'critic', 'fast'],
    ]);
    const [optimist = '', critic = ''] = log.start(agents);
    log.end(optimist, 'It <scales>.');
    expect(planWorkflow(log.run)).toMatchObject({ kind: 'runs', runs: [{ agent: 'critic' }] });
    log.end(critic, 'Costs & "complexity". {"risk": "ops load"}');
    const synthesis = planWorkflow(log.run);
    expect(synthesis).toEqual({
      kind: 'runs',
      runs: [{ slot: '0.1', goal: 'evaluate', attempt: 0, phase: 'synthesize', message: SYNTHESIS }],
    });
    const [merged = ''] = log.start(synthesis);
    log.end(merged, 'Go, slowly. {"verdict": "go"}');
    const completion = planWorkflow(log.run);
    expect(
      completion.kind === 'record' &&
        completion.records.map(({ record, content }) => [
          record.kind === 'goal' ? (record.agent ?? null) : record.kind,
          content,
          record.kind === 'goal' ? (record.fields ?? null) : null,
        ]),
    ).toEqual([
      ['optimist', 'It <scales>.', null],
      ['critic', 'Costs & "complexity". {"risk": "ops load"}', { risk: 'ops load' }],
      [null, 'Go, slowly. {"verdict": "go"}', { verdict: 'go' }],
    ]);
    log.apply(completion);
    const report = planWorkflow(log.run);
    expect(report.kind === 'runs' && report.runs[0]?.message).toBe(REPORT);
  });

  it('resumes a log cut after the agents with the synthesis alone, and runs an abandoned synthesis again', () => {
    const log = afterAgents();
    const first = planWorkflow(log.run);
    expect(first).toMatchObject({ kind: 'runs', runs: [{ phase: 'synthesize', message: SYNTHESIS }] });
    const [dead = ''] = log.start(first);
    log.end(dead, '', 'abandoned');
    const again = planWorkflow(log.run);
    expect(again).toEqual(first);
  });

  it('asks the synthesis once more, in its session, for missing fields, then fails the run naming them', () => {
    const log = afterAgents();
    const [merged = ''] = log.start(planWorkflow(log.run));
    log.end(merged, 'Go, slowly.');
    const retry = planWorkflow(log.run);
    expect(retry).toMatchObject({ kind: 'runs', runs: [{ phase: 'fields', session: merged }] });
    expect(retry.kind === 'runs' && retry.runs[0]?.agent).toBeUndefined();
    log.start(retry);
    log.end(merged, 'Still no JSON.');
    expect(planWorkflow(log.run)).toMatchObject({
      kind: 'record',
      records: [{ record: { kind: 'end', status: 'failed', error: 'GoalFieldsMissing' } }],
    });
  });

  it("runs a REQUIRES agent's fields retry on its profile too, in its session", () => {
    const log = new Log(withSynthesis(DECIDE));
    const [frame = ''] = log.start(planWorkflow(log.run));
    log.end(frame, 'Move to Kubernetes?').apply(planWorkflow(log.run));
    const [optimist = '', critic = ''] = log.start(planWorkflow(log.run));
    log.end(optimist, 'Yes.').end(critic, 'No JSON.');
    expect(planWorkflow(log.run)).toMatchObject({
      kind: 'runs',
      runs: [{ phase: 'fields', agent: 'critic', model: 'fast', session: critic }],
    });
  });

  it('fails the run when the synthesis fails, like any failed run', () => {
    const log = afterAgents();
    const [merged = ''] = log.start(planWorkflow(log.run));
    log.end(merged, '', 'failed');
    expect(planWorkflow(log.run)).toEqual({
      kind: 'record',
      records: [
        {
          record: { kind: 'end', status: 'failed', error: 'GoalFailed' },
          content: `Goal evaluate (synthesize) ended failed: see session ${merged}.`,
        },
      ],
    });
  });

  it('completes without a synthesis when the goal does not ask for one', () => {
    const log = new Log(withSynthesis(DECIDE, false));
    const [frame = ''] = log.start(planWorkflow(log.run));
    log.end(frame, 'Move to Kubernetes?').apply(planWorkflow(log.run));
    const [optimist = '', critic = ''] = log.start(planWorkflow(log.run));
    log.end(optimist, 'Yes.').end(critic, '{"risk": "cost"}');
    const completion = planWorkflow(log.run);
    expect(completion.kind === 'record' && completion.records.map(({ record }) => record.kind)).toEqual([
      'goal',
      'goal',
    ]);
  });
});
