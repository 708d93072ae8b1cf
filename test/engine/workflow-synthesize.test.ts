import { randomUUID } from 'node:crypto';
import { WORKFLOW_STATE_MACHINE } from '@agentstep/local';
import { parseAgentfile, type WorkflowSpec } from '@agentstep/protocol';
import {
  documentSeen,
  GoalScriptedModel,
  type ModelRequest,
  recordsOf,
  runLogOf,
  startWorkflow,
  systemClock,
} from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { localAgent } from '../support/harness.js';

const MOVE = `
NAME move
INPUT place DEFAULT "Kubernetes"
AGENT optimist "You see what is good about $place."
AGENT critic "You see what can go wrong." -> risk REQUIRES "careful"
GOAL evaluate "Evaluate a move to $place." -> verdict USING optimist, critic
GOAL plan "Plan the move, avoiding $risk; the verdict was $verdict."
RUN decide USING evaluate, plan
`;

/** The Agentfile has no keyword for it: the spec asks `evaluate` to synthesize its agents. */
function moveSpec(): WorkflowSpec {
  const parsed = parseAgentfile(MOVE);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const goals = parsed.spec.goals.map((goal) =>
    goal.name === 'evaluate' ? { ...goal, synthesize: true } : goal,
  );
  return { ...parsed.spec, goals };
}

const SYNTHESIS = `<synthesis goal="evaluate">
Agents worked on the current goal below, each on its own; their outputs are in <context> as evaluate[optimist], evaluate[critic].
Merge them into one response to the current goal: keep what they agree on, settle where they differ, and drop nothing that matters. Answer with the merged response only.
</synthesis>

<workflow name="move">

<context>
  <goal id="evaluate[optimist]">
It scales &lt;well&gt;.
  </goal>

  <goal id="evaluate[critic]">
Ops load &amp; cost. {&#34;risk&#34;: &#34;ops load&#34;}
  </goal>

</context>

<current-goal id="evaluate">
Evaluate a move to Kubernetes.

Return your response as JSON with the following fields: verdict
</current-goal>

</workflow>`;

const PLAN = `<workflow name="move">

<context>
  <goal id="evaluate[optimist]">
It scales &lt;well&gt;.
  </goal>

  <goal id="evaluate[critic]">
Ops load &amp; cost. {&#34;risk&#34;: &#34;ops load&#34;}
  </goal>

  <goal id="evaluate">
Go, in stages. {&#34;verdict&#34;: &#34;go&#34;}
  </goal>

</context>

<current-goal id="plan">
Plan the move, avoiding ops load; the verdict was go.
</current-goal>

</workflow>`;

/** The user message each run's first step saw. */
const firstMessages = (calls: readonly ModelRequest[]) =>
  calls.filter((call) => call.turnStep === 0).map((call) => call.messages.at(-1)?.content);

describe.skipIf(dynamoEndpoint === '')(
  'a workflow with a synthesis and a model profile, on the local engine',
  () => {
    it("merges the agents' outputs for the next goal and runs the REQUIRES agent on its profile's model", async () => {
      const model = new GoalScriptedModel({
        'evaluate[optimist]': ['It scales <well>.<end>'],
        'evaluate:synthesize': ['Go, in stages. {"verdict": "go"}<end>'],
        plan: ['Stage 1: a staging cluster.<end>'],
      });
      const careful = new GoalScriptedModel({
        'evaluate[critic]': ['Ops load & cost. {"risk": "ops load"}<end>'],
      });
      const agent = await localAgent({ script: ['unused'], model: () => model, models: { careful } });
      const run = `wf-${randomUUID().slice(0, 8)}`;
      await startWorkflow(
        { run, spec: moveSpec(), inputs: {} },
        { log: agent.stores.log, clock: systemClock },
      );

      const { output } = await agent.engine.execute(WORKFLOW_STATE_MACHINE, { run });

      expect(output).toMatchObject({ next: 'done' });
      const [, synthesis, plan] = firstMessages(model.calls);
      expect(synthesis).toBe(SYNTHESIS);
      expect(plan).toBe(PLAN);
      expect(firstMessages(careful.calls).map((message) => message?.split('\n')[0])).toEqual([
        '<task role="critic" parent-goal="evaluate">',
      ]);
      expect(
        model.calls.some((call) => call.messages.at(-1)?.content.startsWith('<task role="critic"')),
      ).toBe(false);
      const log = runLogOf(run, await agent.stores.log.read(run));
      if (log === undefined) throw new Error(`No run ${run} in the log.`);
      const critic = recordsOf(log, 'run').find(({ record }) => record.agent === 'critic')?.record;
      expect(critic?.model).toBe('careful');
      const spent = await agent.stores.usage.list(critic?.session ?? '');
      expect(spent.map((entry) => entry.profile)).toEqual(['careful']);
      const merged = recordsOf(log, 'run').find(({ record }) => record.phase === 'synthesize')?.record;
      expect((await agent.stores.usage.list(merged?.session ?? '')).map((entry) => entry.profile)).toEqual([
        undefined,
      ]);
      expect(
        recordsOf(log, 'goal').map(({ record, content }) => [record.goal, record.agent ?? null, content]),
      ).toEqual([
        ['evaluate', 'optimist', 'It scales <well>.'],
        ['evaluate', 'critic', 'Ops load & cost. {"risk": "ops load"}'],
        ['evaluate', null, 'Go, in stages. {"verdict": "go"}'],
        ['plan', null, 'Stage 1: a staging cluster.'],
      ]);
      expect(await documentSeen(log, 'evaluate', agent.stores.log)).toBe(SYNTHESIS);
    });
  },
);
