import { App, type AppProps, type CfnElement, Stack, type StackProps } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { AgentStep, type AgentStepProps } from '../agent-step.js';

/** A stack with one agent, and the template it synthesizes to. */
export interface SynthesizedAgent {
  readonly stack: Stack;
  readonly agent: AgentStep;
  readonly template: Template;
}

/**
 * An app that skips asset bundling and CDK's built-in template validation (seconds of CPU the
 * first time, findings only warnings): neither is under test where a test reads the template.
 */
export function testApp(props: AppProps = {}): App {
  return new App({
    builtinCloudFormationValidation: false,
    ...props,
    context: { ...props.context, 'aws:cdk:bundling-stacks': [] },
  });
}

/** A stack of its own (bundling skipped) with one agent, not yet synthesized: add to it, then synthesize. */
export function newAgent(
  props: AgentStepProps | ((stack: Stack) => AgentStepProps) = {},
  stackProps: StackProps = {},
): { stack: Stack; agent: AgentStep } {
  const stack = new Stack(testApp(), 'Test', stackProps);
  const agent = new AgentStep(stack, 'Agent', typeof props === 'function' ? props(stack) : props);
  return { stack, agent };
}

/** {@link newAgent}, synthesized. */
export function synthAgent(
  props: AgentStepProps | ((stack: Stack) => AgentStepProps) = {},
  stackProps: StackProps = {},
): SynthesizedAgent {
  const { stack, agent } = newAgent(props, stackProps);
  return { stack, agent, template: Template.fromStack(stack) };
}

/**
 * A stack with an agent to add triggers to (no API: smaller, quicker), the logical id of its loop
 * and of the loop's `live` alias (whose `Ref` is its ARN).
 */
export function triggerStack(): { stack: Stack; agent: AgentStep; machine: string; live: string } {
  const { stack, agent } = newAgent({ api: false });
  return { stack, agent, machine: logicalId(agent.stateMachine), live: liveId(agent) };
}

/** The logical id of the agent's `live` alias, whose `Ref` is the ARN executions start through. */
export function liveId(agent: AgentStep): string {
  return Stack.of(agent).getLogicalId(agent.live.alias);
}

let defaults: SynthesizedAgent | undefined;

/** The agent with every default, synthesized once per worker: for tests that only read it. */
export function defaultAgent(): SynthesizedAgent {
  defaults ??= synthAgent();
  return defaults;
}

/** The logical id of a construct's own resource (its `defaultChild`) in its stack. */
export function logicalId(construct: { node: { defaultChild?: unknown } } | undefined): string {
  const resource = construct?.node.defaultChild as CfnElement | undefined;
  if (resource === undefined) throw new Error('The construct has no resource of its own (no defaultChild).');
  return Stack.of(resource).getLogicalId(resource);
}

/** A function's environment variables, as the template gives them (tokens left as they are). */
export function environmentOf(template: Template, fn: IFunction | undefined): Record<string, unknown> {
  return template.toJSON().Resources[logicalId(fn)].Properties.Environment.Variables;
}
