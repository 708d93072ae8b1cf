import { AgentStep, type AgentStepProps } from '@agentstep/cdk';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Code, type IFunction, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { deployedValue } from './iam-coverage.js';

/** A resource of a synthesized template. */
export interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
}

/** One Lambda function a synthesized agent deploys: its folder under `functions/`, its environment, its role. */
export interface DeployedFunction {
  folder: string;
  logicalId: string;
  /** Its environment as the template sets it, tokens resolved to what they are deployed as. */
  environment: Record<string, string>;
  /** The logical id of its execution role. */
  role: string;
}

/** What an `AgentStep` deploys: its functions, its state machines' roles, and the template's resources. */
export interface Deployment {
  functions: DeployedFunction[];
  /** The loop's and the workflow state machine's ARNs (as deployed in the test account) and roles' logical ids. */
  machines: Record<'loop' | 'workflow', { arn: string; role: string }>;
  resources: Record<string, TemplateResource>;
  /** The stack's outputs, resolved to what they are deployed as. */
  outputs: Record<string, string>;
}

/** Where the test deploys: the account and region every ARN of the deployment names. */
export const TEST_ENV = { account: '123456789012', region: 'us-east-1' };

/**
 * What an `AgentStep` with `props` deploys (synthesized as `cdk synth` does in account
 * 123456789012, us-east-1, bundling skipped), after `extend` adds to it (triggers): every step,
 * the operator, the API's functions, and the traces function with `traces`.
 */
export function deployment(
  props: AgentStepProps | ((stack: Stack) => AgentStepProps),
  extend: (agent: AgentStep, stack: Stack) => void = () => {},
): Deployment {
  return deploymentOf((app) => {
    const stack = new Stack(app, 'Test', { env: TEST_ENV });
    const agent = new AgentStep(stack, 'Agent', typeof props === 'function' ? props(stack) : props);
    extend(agent, stack);
    return { stack, agent };
  });
}

/**
 * What the stack `build` adds to an app deploys, as {@link deployment} synthesizes it: the stack's
 * `AgentStep`, whose every function, state machine and output it reads.
 */
export function deploymentOf(build: (app: App) => { stack: Stack; agent: AgentStep }): Deployment {
  const app = new App({ builtinCloudFormationValidation: false, context: { 'aws:cdk:bundling-stacks': [] } });
  const { stack, agent } = build(app);
  const template = app.synth().getStackByName(stack.stackName).template as {
    Resources: Record<string, TemplateResource>;
    Outputs?: Record<string, { Value: unknown }>;
  };
  const resources = template.Resources;
  const outputs = Object.fromEntries(
    Object.entries(template.Outputs ?? {}).map(([key, { Value }]) => [
      key,
      String(deployedValue(Value, resources)),
    ]),
  );
  const idOf = (construct: IFunction | IStateMachine) =>
    stack.getLogicalId(construct.node.defaultChild as CfnElement);
  const roleOf = (id: string, property: 'Role' | 'RoleArn') => {
    const role = resources[id]?.Properties?.[property] as { 'Fn::GetAtt': [string, string] } | undefined;
    if (role === undefined) throw new Error(`${id} has no ${property} in the template.`);
    return role['Fn::GetAtt'][0];
  };
  const byFolder: Array<[string, IFunction]> = [
    ...Object.entries(agent.functions),
    ...Object.entries(agent.apiFunctions).flatMap(([folder, fn]) =>
      fn ? [[folder, fn] as [string, IFunction]] : [],
    ),
    ['operator', agent.operator],
    ...(agent.tracesFunction ? [['export-traces', agent.tracesFunction] as [string, IFunction]] : []),
  ];
  const functions = byFolder.map(([folder, fn]) => {
    const logicalId = idOf(fn);
    const properties = resources[logicalId]?.Properties as {
      Environment?: { Variables?: Record<string, unknown> };
    };
    const environment = deployedValue(properties.Environment?.Variables ?? {}, resources) as Record<
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
  const machine = (stateMachine: IStateMachine) => ({
    arn: `arn:aws:states:us-east-1:123456789012:stateMachine:${idOf(stateMachine)}`,
    role: roleOf(idOf(stateMachine), 'RoleArn'),
  });
  return {
    functions,
    machines: { loop: machine(agent.stateMachine), workflow: machine(agent.workflowStateMachine) },
    resources,
    outputs,
  };
}

/** A function of the user's, deployed beside the agent: what a Lambda tool names. */
export function existingFunction(stack: Stack, id: string): LambdaFunction {
  return new LambdaFunction(stack, id, {
    runtime: Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: Code.fromInline('exports.handler = async () => ({})'),
  });
}

/**
 * The environment Lambda's runtime gives `fn`: the template's, the stand-ins' endpoints
 * (`services`), its region, and credentials whose access key is `caller` (letters and digits, as
 * DynamoDB Local takes them), so each AWS call it makes says who made it.
 */
export function lambdaEnvironment(
  fn: DeployedFunction,
  services: Record<string, string>,
  caller: string,
): Record<string, string> {
  return {
    ...fn.environment,
    ...services,
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_LAMBDA_FUNCTION_NAME: fn.logicalId,
    AWS_ACCESS_KEY_ID: caller,
    AWS_SECRET_ACCESS_KEY: 'local',
  };
}
