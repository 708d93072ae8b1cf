import { agentVersion } from '@agentstep/protocol/node';
import { Stack } from 'aws-cdk-lib';
import type { CfnStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { AgentStateMachine } from './agent-state-machine.js';
import type { AgentStepProps } from './agent-step.js';

/**
 * The version of the agent a deployment runs (decision 0040): the short hash of its props as
 * resolved over the agent file (the data ones: models, instructions, toolsets, tools, approvals,
 * limits, budget, context, prices), the agent file's own tools, and the loop's definition as
 * synthesized (its references to functions by logical id). The same app synthesizes the same version.
 */
export function deployedAgentVersion(
  props: AgentStepProps,
  agentTools: readonly Readonly<Record<string, unknown>>[],
  loop: AgentStateMachine,
): string {
  return agentVersion({ props: versionedProps(props), tools: agentTools, definition: unpinned(loop) });
}

/**
 * The loop's definition with each function version it calls named by its function instead: a
 * version's logical id hashes the function's code (and StartTurn's, this very version), which
 * decision 0040 leaves out of the agent's version.
 */
function unpinned(loop: AgentStateMachine): unknown {
  const stack = Stack.of(loop);
  const json = (value: unknown) => JSON.stringify(stack.resolve(value));
  let definition = json((loop.stateMachine.node.defaultChild as CfnStateMachine).definitionString);
  for (const version of loop.versions)
    definition = definition.replaceAll(json(version.functionArn), json(version.lambda.functionArn));
  return JSON.parse(definition);
}

/** The props that decide how the agent behaves, as data (durations in seconds, Lambda tools without their functions). */
function versionedProps(props: AgentStepProps): Record<string, unknown> {
  const { model, modelProfiles, instructions, builtInTools, httpAllowHosts, approvals, budget, context } =
    props;
  const { prices, maxConcurrency, maxSteps, stepsPerExecution, repeatedCalls, stepsWithoutProgress } = props;
  return {
    model,
    modelProfiles,
    instructions,
    builtInTools,
    httpAllowHosts,
    approvals,
    approvalTimeoutSeconds: props.approvalTimeout?.toSeconds(),
    budget,
    context,
    prices,
    maxConcurrency,
    maxSteps,
    stepsPerExecution,
    repeatedCalls,
    stepsWithoutProgress,
    modelScript: props.modelScript,
    modelBaseUrl: props.modelBaseUrl,
    lambdaTools: props.lambdaTools?.map(({ function: _code, timeout, ...tool }) => ({
      ...tool,
      timeoutSeconds: timeout?.toSeconds(),
    })),
  };
}
