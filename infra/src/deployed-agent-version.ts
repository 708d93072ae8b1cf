import { agentVersion } from '@agentstep/protocol/node';
import { Stack } from 'aws-cdk-lib';
import type { CfnStateMachine, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
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
  loop: StateMachine,
): string {
  const definition = Stack.of(loop).resolve((loop.node.defaultChild as CfnStateMachine).definitionString);
  return agentVersion({ props: versionedProps(props), tools: agentTools, definition });
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
