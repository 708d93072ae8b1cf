import { AgentStep, type AgentStepProps } from '@agentstep/cdk';
import { resolveTokens } from '@agentstep/local';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';

/** A resource of a synthesized template. */
export interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
}

/** One Lambda function a synthesized agent deploys: its folder under `functions/`, its environment, its role. */
export interface DeployedFunction {
  folder: string;
  logicalId: string;
  /** Its environment as the template sets it, tokens resolved as the local engine resolves them. */
  environment: Record<string, string>;
  /** The logical id of its execution role. */
  role: string;
}

/** What an `AgentStep` deploys: its functions, its state machines' roles, and the template's resources. */
export interface Deployment {
  functions: DeployedFunction[];
  /** The logical ids of the loop's and the workflow state machine's roles. */
  machineRoles: { loop: string; workflow: string };
  resources: Record<string, TemplateResource>;
}

/**
 * What an `AgentStep` with `props` deploys (synthesized as `cdk synth` does in account
 * 123456789012, us-east-1, bundling skipped): every step, the operator, and the API's functions.
 */
export function deployment(props: AgentStepProps | ((stack: Stack) => AgentStepProps)): Deployment {
  const app = new App({ builtinCloudFormationValidation: false, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  const agent = new AgentStep(stack, 'Agent', typeof props === 'function' ? props(stack) : props);
  const resources = app.synth().getStackByName(stack.stackName).template.Resources as Record<
    string,
    TemplateResource
  >;
  const idOf = (construct: IFunction | IStateMachine) =>
    stack.getLogicalId(construct.node.defaultChild as CfnElement);
  const roleOf = (id: string, property: 'Role' | 'RoleArn') =>
    (resources[id]?.Properties?.[property] as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const byFolder: Array<[string, IFunction]> = [
    ...Object.entries(agent.functions),
    ...Object.entries(agent.apiFunctions).flatMap(([folder, fn]) =>
      fn ? [[folder, fn] as [string, IFunction]] : [],
    ),
    ['operator', agent.operator],
  ];
  const functions = byFolder.map(([folder, fn]) => {
    const logicalId = idOf(fn);
    const properties = resources[logicalId]?.Properties as {
      Environment?: { Variables?: Record<string, unknown> };
    };
    const environment = resolveTokens(properties.Environment?.Variables ?? {}, resources as never) as Record<
      string,
      unknown
    >;
    return {
      folder,
      logicalId,
      environment: Object.fromEntries(
        Object.entries(environment).map(([name, value]) => [name, String(value)]),
      ),
      role: roleOf(logicalId, 'Role'),
    };
  });
  const machineRoles = {
    loop: roleOf(idOf(agent.stateMachine), 'RoleArn'),
    workflow: roleOf(idOf(agent.workflowStateMachine), 'RoleArn'),
  };
  return { functions, machineRoles, resources };
}
