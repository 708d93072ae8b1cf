import { randomUUID } from 'node:crypto';
import { WORKFLOW_STATE_MACHINE } from '@agentstep/local';
import { parseAgentfile, type WorkflowSpec } from '@agentstep/protocol';
import {
  type ContextOptions,
  decideGate,
  GoalScriptedModel,
  type GoalScripts,
  recordsOf,
  runLogOf,
  startWorkflow,
  systemClock,
} from '@agentstep/runtime';
import { readUntil } from '@agentstep/runtime/testing';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { localAgent } from '../support/harness.js';

const TRIP = `
NAME trip-planner
INPUT city DEFAULT "Lisbon"
AGENT optimist "You see what is good about $city."
AGENT critic "You see what can go wrong." -> risk
GOAL brainstorm "List three things to do in $city." -> top
GOAL evaluate "Evaluate a day built around $top." USING optimist, critic
CONVERGE itinerary "Write a one-day itinerary for $city that avoids $risk." WITHIN 3
RUN plan USING brainstorm, evaluate, itinerary
`;

const SCRIPTS: GoalScripts = {
  brainstorm: ['Tram 28, Belém & fado.\n{"top": "tram 28"}<end>'],
  'evaluate[optimist]': ['The views from tram 28 are <great>.<end>'],
  'evaluate[critic]': ['It gets crowded. {"risk": "noon crowds"}<end>'],
  itinerary: ['Draft 1: tram at noon.<end>', 'Draft 2: tram at 8, Belém, fado.<end>', 'CONVERGED<end>'],
};

const BRAINSTORM = `<workflow name="trip-planner">

<current-goal id="brainstorm">
List three things to do in Lisbon.

Return your response as JSON with the following fields: top
</current-goal>

</workflow>`;

const CRITIC = `<task role="critic" parent-goal="evaluate">
<context>
<goal id="brainstorm">
Tram 28, Belém &amp; fado.
{&#34;top&#34;: &#34;tram 28&#34;}
</goal>
</context>

<objective>
Evaluate a day built around tram 28.

Return your response as JSON with the following fields: risk
</objective>
</task>`;

const PRIOR = `<context>
  <goal id="brainstorm">
Tram 28, Belém &amp; fado.
{&#34;top&#34;: &#34;tram 28&#34;}
  </goal>

  <goal id="evaluate[optimist]">
The views from tram 28 are &lt;great&gt;.
  </goal>

  <goal id="evaluate[critic]">
It gets crowded. {&#34;risk&#34;: &#34;noon crowds&#34;}
  </goal>
`;

const INSTRUCTION = `<convergence-instruction>
This is a convergence goal. Review your previous iterations in <convergence-history> and refine your output.
When you are confident that further refinement would not meaningfully improve the result, output ONLY the word: CONVERGED
Do not output CONVERGED prematurely. Only converge when the output is truly stable and complete.
</convergence-instruction>`;

const ITINERARY_2 = `<workflow name="trip-planner">

${PRIOR}
  <convergence-history>
    <iteration n="1">
Draft 1: tram at noon.
    </iteration>
  </convergence-history>

</context>

<current-goal id="itinerary">
Write a one-day itinerary for Lisbon that avoids noon crowds.
</current-goal>

${INSTRUCTION}

</workflow>`;

function spec(source: string): WorkflowSpec {
  const parsed = parseAgentfile(source);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.spec;
}

/** A workflow run on the synthesized workflow and agent state machines, with a scripted model per goal. */
async function workflowAgent(scripts: GoalScripts, context?: ContextOptions) {
  const model = new GoalScriptedModel(scripts);
  const agent = await localAgent({ script: ['unused'], model: () => model, ...(context ? { context } : {}) });
  const run = `wf-${randomUUID().slice(0, 8)}`;
  const begin = (source: string, inputs: Record<string, string> = {}) =>
    startWorkflow({ run, spec: spec(source), inputs }, { log: agent.stores.log, clock: systemClock });
  const execute = () => agent.engine.execute(WORKFLOW_STATE_MACHINE, { run });
  const runLog = async () => {
    const log = runLogOf(run, await agent.stores.log.read(run));
    if (log === undefined) throw new Error(`No run ${run} in the log.`);
    return log;
  };
  const userMessages = () =>
    model.calls.filter((call) => call.turnStep === 0).map((call) => call.messages.at(-1)?.content);
  return { agent, model, run, begin, execute, runLog, userMessages };
}

describe.skipIf(dynamoEndpoint === '')('workflow runs on the synthesized workflow state machine', () => {
  it('a goal compacts its own session as any turn does (decision 0035)', async () => {
    const fetch = Array.from(
      { length: 14 },
      (_, n) => `<execute>[{"name":"blob","args":{"bytes":${2_000 + n}}}]</execute>`,
    );
    const flow = await workflowAgent(
      { gather: [[...fetch, 'Gathered fourteen blobs.<end>']] },
      { windowTokens: 4_000 },
    );
    await flow.begin('NAME gatherer\nGOAL gather "Gather fourteen blobs."\nRUN main USING gather\n');
    const { output } = await flow.execute();
    expect(output).toMatchObject({ next: 'done' });
    const [goal] = recordsOf(await flow.runLog(), 'goal');
    expect(goal?.content).toBe('Gathered fourteen blobs.');
    const steps = flow.model.calls.filter((call) => call.purpose !== 'compaction');
    expect(steps).toHaveLength(15);
    expect(flow.model.calls.some((call) => call.purpose === 'compaction')).toBe(true);
    expect(steps.at(-1)?.messages[0]?.content).toMatch(/^<summary>/);
  });

  it('runs a plain goal with fields, a two-agent goal and a CONVERGE goal, each seeing its document byte for byte', async () => {
    const flow = await workflowAgent(SCRIPTS);
    await flow.begin(TRIP);
    const { output } = await flow.execute();
    expect(output).toMatchObject({ next: 'done' });
    const [brainstorm, first, second, iteration1, iteration2, iteration3] = flow.userMessages();
    expect(brainstorm).toBe(BRAINSTORM);
    // The agents run in parallel: their order of arrival at the model is not fixed.
    expect([first, second]).toContain(CRITIC);
    expect(iteration1).toBe(
      `<workflow name="trip-planner">\n\n${PRIOR}\n</context>\n\n<current-goal id="itinerary">\nWrite a one-day itinerary for Lisbon that avoids noon crowds.\n</current-goal>\n\n${INSTRUCTION}\n\n</workflow>`,
    );
    expect(iteration2).toBe(ITINERARY_2);
    expect(iteration3).toContain('<iteration n="2">\nDraft 2: tram at 8, Belém, fado.\n    </iteration>');
    const optimist = flow.model.calls.find((call) =>
      call.messages.at(-1)?.content.startsWith('<task role="optimist"'),
    );
    expect(optimist?.system.startsWith('You see what is good about Lisbon.')).toBe(true);
    const log = await flow.runLog();
    const goals = recordsOf(log, 'goal').map(({ record, content }) => [
      record.goal,
      record.agent ?? null,
      content,
      record.fields ?? null,
    ]);
    expect(goals).toEqual([
      ['brainstorm', null, 'Tram 28, Belém & fado.\n{"top": "tram 28"}', { top: 'tram 28' }],
      ['evaluate', 'optimist', 'The views from tram 28 are <great>.', null],
      ['evaluate', 'critic', 'It gets crowded. {"risk": "noon crowds"}', { risk: 'noon crowds' }],
      ['itinerary', null, 'Draft 2: tram at 8, Belém, fado.', null],
    ]);
    const ended = flow.agent.engine.eventBus.events.filter(({ source }) => source === 'agentstep');
    expect(ended.at(-1)).toMatchObject({
      detailType: 'Workflow Run Completed',
      detail: { run: flow.run, status: 'done', message: expect.any(String) },
    });
  });

  it('asks once more for missing fields, in the same session, then fails the run naming them', async () => {
    const flow = await workflowAgent({ brainstorm: ['No JSON here.<end>', 'Still none.<end>'] });
    await flow.begin(TRIP);
    await expect(flow.execute()).rejects.toMatchObject({ cause: { name: 'GoalFieldsMissing' } });
    expect(flow.agent.engine.eventBus.events.at(-1)).toMatchObject({
      detailType: 'Workflow Run Failed',
      detail: { run: flow.run, status: 'failed', error: 'GoalFieldsMissing' },
    });
    const [, retry] = flow.userMessages();
    expect(retry).toBe(
      'Your response has no JSON object with the field top.\n\nReturn your response as JSON with the following fields: top',
    );
    const runs = recordsOf(await flow.runLog(), 'run').map(({ record }) => [record.phase, record.session]);
    expect(runs[1]?.[1]).toBe(runs[0]?.[1]);
  });

  it('waits at a SUPERVISED HUMAN goal; a correction runs it again with <correction source="human">, then approval completes it', async () => {
    const flow = await workflowAgent({
      haiku: ['Leaves fall, many leaves, so many leaves.<end>', 'Leaves fall.<end>'],
    });
    await flow.begin(
      'NAME poem\nINPUT topic\nGOAL haiku "Write a haiku about $topic." SUPERVISED HUMAN\nRUN write USING haiku',
      {
        topic: 'autumn',
      },
    );
    const running = flow.execute();
    const gates = {
      log: flow.agent.stores.log,
      clock: systemClock,
      approvalTokens: flow.agent.stores.approvalTokens,
      taskTokens: flow.agent.engine.taskTokens,
    };
    /** The gate of `attempt`, once it waits for a decision. */
    const waiting = async (attempt: number) => {
      const gateOf = (log: Awaited<ReturnType<typeof flow.runLog>>) =>
        recordsOf(log, 'gate').find(
          ({ record }) => record.attempt === attempt && record.status === 'waiting',
        );
      const log = await readUntil(flow.runLog, (log) => gateOf(log) !== undefined);
      return gateOf(log)?.record.gate ?? '';
    };
    const first = await waiting(0);
    await decideGate(
      { run: flow.run, gate: first, decision: 'correct', text: 'Use fewer words.', by: 'ann' },
      gates,
    );
    const second = await waiting(1);
    await decideGate({ run: flow.run, gate: second, decision: 'approve', by: 'ann' }, gates);
    expect((await running).output).toMatchObject({ next: 'done' });
    const documents = flow.userMessages().filter((message) => message?.startsWith('<workflow'));
    expect(documents.at(-1)).toBe(`<workflow name="poem">

<current-goal id="haiku">
Write a haiku about autumn.
</current-goal>

<correction source="human">
Use fewer words.
</correction>

</workflow>`);
    const log = await flow.runLog();
    expect(
      recordsOf(log, 'gate').map(({ record }) => [record.attempt, record.status, record.by ?? null]),
    ).toEqual([
      [0, 'waiting', null],
      [0, 'corrected', 'ann'],
      [1, 'waiting', null],
      [1, 'approved', 'ann'],
    ]);
    expect(recordsOf(log, 'goal').map(({ content }) => content)).toEqual(['Leaves fall.']);
  });
});
