import { AgentStep } from '@agentstep/cdk';
import { SummaryWorkflow } from '@agentstep/examples/parent-workflow';
import { type LocalEngineOptions, resolveTokens } from '@agentstep/local';
import { App, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch, localAgent } from '../support/harness.js';

const ANSWER = 'Otters hold hands while they sleep.';

/**
 * The example app synthesized as `cdk synth` does: the agent and the parent workflow in one stack,
 * each state machine's definition by logical id, its tokens resolved (a `Ref` to the agent's machine
 * is its logical id, under which the engine hosts it too).
 */
function synthesizedExample(): {
  parent: string;
  machines: NonNullable<LocalEngineOptions['stateMachines']>;
} {
  const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Example');
  const agent = new AgentStep(stack, 'Agent', { api: false });
  const workflow = new SummaryWorkflow(stack, 'Summary', { agent });
  const template = (stack.node.root as App).synth().getStackByName(stack.stackName).template as {
    Resources: Record<string, { Type: string; Properties: { DefinitionString: unknown } }>;
  };
  const machines = Object.fromEntries(
    Object.entries(template.Resources)
      .filter(([, resource]) => resource.Type === 'AWS::StepFunctions::StateMachine')
      .map(([id, resource]) => [
        id,
        JSON.parse(resolveTokens(resource.Properties.DefinitionString, template.Resources) as string),
      ]),
  );
  return { parent: stack.getLogicalId(workflow.stateMachine.node.defaultChild as never), machines };
}

describe.skipIf(dynamoEndpoint === '')(
  'the example parent workflow (examples/parent-workflow.ts) on the local engine',
  () => {
    it('asks the agent with startExecution.sync:2 and gets its answer, across the turn’s fresh executions', async () => {
      const { parent, machines } = synthesizedExample();
      const steps = [1, 2, 3, 4].map((n) => batch(['echo', { text: `${n}` }]));
      const agent = await localAgent({
        script: [...steps, `${ANSWER}<end>`],
        stateMachines: machines,
        limits: { stepsPerExecution: 2 },
      });
      // Through the agent's `live` alias, as every caller starts turns (decision 0042).
      expect(JSON.stringify(machines[parent])).toMatch(
        /"StateMachineArn":"arn:[^"]+:stateMachine:[^":]+:live"/,
      );
      const run = await agent.engine.execute(parent, { topic: 'otters' });
      expect(run.output).toEqual({ answer: ANSWER, status: 'done' });
      // The parent, the agent's first execution, and the two it continued in.
      expect(run.stats.executions).toBe(4);
      const [message] = agent.model.calls[0]?.messages ?? [];
      expect(message?.content).toBe('Summarize what we know about otters in three sentences.');
    });
  },
);
