import { AgentStep, type AgentStepProps } from '@agentstep/cdk';
import { resolveTokens } from '@agentstep/local';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/** One Lambda function a synthesized agent deploys: its folder under `functions/` and its environment. */
export interface DeployedFunction {
  folder: string;
  logicalId: string;
  /** Its environment as the template sets it, tokens resolved as the local engine resolves them. */
  environment: Record<string, string>;
}

/**
 * The Lambda functions an `AgentStep` with `props` deploys (synthesized, bundling skipped), after
 * `extend` adds to it (triggers): every step, the operator, and the API's.
 */
export function deployedFunctions(
  props: AgentStepProps | ((stack: Stack) => AgentStepProps),
  extend: (agent: AgentStep) => void = () => {},
): DeployedFunction[] {
  const app = new App({ builtinCloudFormationValidation: false, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  const agent = new AgentStep(stack, 'Agent', typeof props === 'function' ? props(stack) : props);
  extend(agent);
  const resources = app.synth().getStackByName(stack.stackName).template.Resources as Record<
    string,
    { Type: string; Properties: { Environment?: { Variables?: Record<string, unknown> } } }
  >;
  const byFolder: Array<[string, IFunction]> = [
    ...Object.entries(agent.functions),
    ...Object.entries(agent.apiFunctions).flatMap(([folder, fn]) =>
      fn ? [[folder, fn] as [string, IFunction]] : [],
    ),
    ['operator', agent.operator],
  ];
  return byFolder.map(([folder, fn]) => {
    const logicalId = stack.getLogicalId(fn.node.defaultChild as CfnElement);
    const variables = resources[logicalId]?.Properties.Environment?.Variables ?? {};
    const environment = resolveTokens(variables, resources as never) as Record<string, unknown>;
    return {
      folder,
      logicalId,
      environment: Object.fromEntries(
        Object.entries(environment).map(([name, value]) => [name, String(value)]),
      ),
    };
  });
}
