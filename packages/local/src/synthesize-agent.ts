import { rmSync } from 'node:fs';
import type { StepName } from '@agentstep/cdk';
import { AgentStep } from '@agentstep/cdk';
import { App, type CfnElement, Duration, Stack } from 'aws-cdk-lib';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { resolveTokens } from './resolve-tokens.js';

/** The synthesized loop, ready to run locally. */
export interface SynthesizedAgent {
  /** The state machine definition CDK synthesized, with its tokens resolved. */
  definition: StateMachineDefinition;
  /**
   * The workflow state machine's definition, and the name its goals start the loop by (the loop's
   * logical id, which a `Ref` to it resolves to).
   */
  workflow: { definition: StateMachineDefinition; agentName: string };
  /** Which step each Lambda function (by logical id, its local name) runs. */
  functions: ReadonlyMap<string, StepName>;
}

type Resource = { Type: string; Properties?: Record<string, unknown> };

/** The construct props that shape the definition itself; the others only reach functions' environments. */
export interface DefinitionProps {
  /** Whole seconds a call waits for approval: AwaitApproval's `TimeoutSeconds`. @default 24 hours */
  approvalTimeoutSeconds?: number;
}

/**
 * Synthesizes the `AgentStep` construct exactly as `cdk synth` does, without bundling, and
 * extracts its state machine definition and functions. Only `DefinitionProps` change the
 * definition (other props reach the functions' environments, which run locally from options), so
 * one synthesis per such props serves every local run.
 */
export function synthesizeAgent(props: DefinitionProps = {}): SynthesizedAgent {
  // Without CDK's template validation (warnings only, on the deployed template `cdk synth` checks):
  // it costs ~7 s of CPU on every synthesis, which every first local run would pay.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
  const stack = new Stack(app, 'AgentStepLocal');
  const { approvalTimeoutSeconds } = props;
  // The loop only: the HTTP API is hosted locally by `agentstep serve`, not by a synthesized one.
  const agent = new AgentStep(stack, 'Agent', {
    api: false,
    ...(approvalTimeoutSeconds ? { approvalTimeout: Duration.seconds(approvalTimeoutSeconds) } : {}),
  });
  const template = templateOf(app, stack).Resources;
  const resources = Object.entries(template) as Array<[string, Resource]>;
  const logicalId = (machine: StateMachine | undefined) =>
    machine && stack.getLogicalId(machine.node.defaultChild as CfnElement);
  const definitionOf = (id: string | undefined) => {
    const resource = resources.find(([candidate]) => candidate === id)?.[1];
    if (resource === undefined) throw new Error(`The synthesized stack has no state machine ${id}.`);
    return JSON.parse(resolveTokens(resource.Properties?.DefinitionString, template) as string);
  };
  const agentName = logicalId(agent.stateMachine) as string;
  const definition = definitionOf(agentName);
  const workflow = { definition: definitionOf(logicalId(agent.workflowStateMachine)), agentName };
  const functions = new Map<string, StepName>();
  for (const [logicalId, resource] of resources) {
    const variables = (resource.Properties?.Environment as { Variables?: Record<string, string> } | undefined)
      ?.Variables;
    if (resource.Type === 'AWS::Lambda::Function' && variables?.AGENTSTEP_STEP) {
      functions.set(logicalId, variables.AGENTSTEP_STEP as StepName);
    }
  }
  return { definition, workflow, functions };
}

/** The stack's template, synthesized into the app's temporary folder, which is removed after. */
function templateOf(app: App, stack: Stack): { Resources: Record<string, Resource> } {
  try {
    return app.synth().getStackByName(stack.stackName).template;
  } finally {
    rmSync(app.outdir, { recursive: true, force: true });
  }
}
