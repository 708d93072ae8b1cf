import type { TaskCall } from '@agentstep/local';
import { runSimulation, runUnsafeSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { type AwsCall, OTLP_TRACES } from './aws-stand-in.js';
import type { TemplateResource } from './deployed-functions.js';

/** Where the deployments are synthesized (`deployment()`): the test account and region. */
const ACCOUNT = '123456789012';
const REGION = 'us-east-1';
const PSEUDO: Readonly<Record<string, string>> = {
  'AWS::Partition': 'aws',
  'AWS::Region': REGION,
  'AWS::AccountId': ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
};

/** What IAM authorizes: an action on a resource, with the condition keys the request sets. */
export interface IamRequest {
  action: string;
  resource: string;
  context?: Record<string, string>;
}

/** A request one role made, and who made it (a function, a state machine), for messages. */
export interface RoleRequest extends IamRequest {
  role: string;
  by: string;
}

/** A statement of an identity policy, tokens resolved. */
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: string | string[];
  [key: string]: unknown;
}

const functionArn = (id: string) => `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${id}`;
const stateMachineArn = (id: string) => `arn:aws:states:${REGION}:${ACCOUNT}:stateMachine:${id}`;
/** A function's ARN from its name or ARN, as Lambda's Invoke names it. */
const functionArnOf = (nameOrArn: string) =>
  nameOrArn.startsWith('arn:') ? nameOrArn : functionArn(nameOrArn);
/** A state machine's ARN without the alias or version it may name (`…:stateMachine:NAME[:QUALIFIER]`). */
export const unqualified = (arn: string) => arn.split(':').slice(0, 7).join(':');
const tableArn = (name: string) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name}`;

/**
 * The IAM requests of one recorded AWS API call: DynamoDB's operations (a transaction's items each
 * as its own action), S3's, EventBridge's PutEvents, Secrets Manager's GetSecretValue, CloudWatch's
 * OTLP traces (X-Ray's PutTraceSegments), Step Functions'
 * (a start through an alias authorized on the state machine, as Step Functions authorizes it; a
 * task token's answer on the state machine that issued it, `machineOfToken`).
 */
export function iamRequestsOf(
  { target, input }: AwsCall,
  machineOfToken: (token: string) => string | undefined = () => undefined,
): IamRequest[] {
  const [service, operation = ''] = target.split('.');
  if (service === 'DynamoDB_20120810') return dynamoDbRequests(operation, input);
  // CloudWatch's OTLP traces endpoint is authorized as xray:PutTraceSegments (the X-Ray developer
  // guide, xray-opentelemetry-bearer-token.html), an action with no resource types.
  if (target === OTLP_TRACES) return [{ action: 'xray:PutTraceSegments', resource: '*' }];
  if (service === 'AWSEvents' && operation === 'PutEvents') return putEventsRequests(input);
  if (target === 'Lambda.Invoke')
    return [{ action: 'lambda:InvokeFunction', resource: functionArnOf(String(input.FunctionName)) }];
  if (service === 'S3') return [s3Request(operation, input)];
  if (service === 'secretsmanager')
    return [{ action: `secretsmanager:${operation}`, resource: String(input.SecretId) }];
  if (service === 'AWSStepFunctions') {
    const resource =
      input.taskToken !== undefined
        ? machineOfToken(String(input.taskToken))
        : (input.executionArn ?? unqualified(String(input.stateMachineArn)));
    if (resource === undefined) throw new Error(`No state machine issued the token of ${target}.`);
    return [{ action: `states:${operation}`, resource: String(resource) }];
  }
  throw new Error(`No IAM mapping for ${target}.`);
}

/** S3's object reads and writes on the object, a listing on the bucket with its prefix (`s3:prefix`). */
function s3Request(operation: string, input: Record<string, unknown>): IamRequest {
  const bucket = `arn:aws:s3:::${String(input.Bucket)}`;
  if (operation === 'ListObjectsV2')
    return {
      action: 's3:ListBucket',
      resource: bucket,
      context: { 's3:prefix': String(input.Prefix ?? '') },
    };
  const action = operation === 'HeadObject' ? 'GetObject' : operation;
  return { action: `s3:${action}`, resource: `${bucket}/${String(input.Key)}` };
}

/** EventBridge's PutEvents: one request per entry, on its bus (the account's default one unless named). */
function putEventsRequests(input: Record<string, unknown>): IamRequest[] {
  return (input.Entries as Array<{ EventBusName?: string }>).map(({ EventBusName = 'default' }) => ({
    action: 'events:PutEvents',
    resource: EventBusName.startsWith('arn:')
      ? EventBusName
      : `arn:aws:events:${REGION}:${ACCOUNT}:event-bus/${EventBusName}`,
  }));
}

/** The rule Step Functions manages to follow the executions a `.sync` task starts. */
const SYNC_RULE = `arn:aws:events:${REGION}:${ACCOUNT}:rule/StepFunctionsGetEventsForStepFunctionsExecutionRule`;

/**
 * The requests a task state's service call makes of IAM, besides Lambda invocations (recorded as
 * the functions are invoked): announcing on EventBridge, starting the loop (the workflow's goals,
 * ContinueAsNew) and, with `.sync`, following the execution with Step Functions' managed rule, and
 * describing an execution. Every execution is the loop's (`loop`, its ARN as deployed).
 */
export function taskRequestsOf({ task, input }: TaskCall, loop: string): IamRequest[] {
  const parameters = input as Record<string, unknown>;
  const execution = (name: unknown) =>
    `${loop.replace(':stateMachine:', ':execution:')}:${String(name ?? 'execution')
      .split(':')
      .at(-1)}`;
  if (task.kind === 'put-events') return putEventsRequests(parameters);
  if (task.kind === 'describe-execution')
    return [{ action: 'states:DescribeExecution', resource: execution(parameters.ExecutionArn) }];
  if (task.kind !== 'start-execution') return [];
  const following =
    task.mode === 'start'
      ? []
      : [
          ...['states:DescribeExecution', 'states:StopExecution'].map((action) => ({
            action,
            resource: execution(parameters.Name),
          })),
          ...['events:PutTargets', 'events:PutRule', 'events:DescribeRule'].map((action) => ({
            action,
            resource: SYNC_RULE,
          })),
        ];
  return [{ action: 'states:StartExecution', resource: loop }, ...following];
}

function dynamoDbRequests(operation: string, input: Record<string, unknown>): IamRequest[] {
  const on = (action: string, table: unknown) => ({
    action: `dynamodb:${action}`,
    resource: tableArn(String(table)),
  });
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
    const items = input.TransactItems as Array<Record<string, { TableName: string }>>;
    const actions: Record<string, string> = {
      Put: 'PutItem',
      Update: 'UpdateItem',
      Delete: 'DeleteItem',
      ConditionCheck: 'ConditionCheckItem',
      Get: 'GetItem',
    };
    return items.flatMap((item) =>
      Object.entries(item).map(([kind, { TableName }]) => on(actions[kind] ?? kind, TableName)),
    );
  }
  if (operation === 'BatchWriteItem' || operation === 'BatchGetItem')
    return Object.keys(input.RequestItems as object).map((table) => on(operation, table));
  return [on(operation, input.TableName)];
}

/**
 * What AWS services do with the roles a template gives its triggers, from their definitions: an
 * EventBridge rule's target starts its state machine with the target's role; a pipe reads and
 * deletes its queue's messages and starts its target with the pipe's role. By role's logical id.
 */
export function triggerRequests(
  resources: Record<string, TemplateResource>,
): Array<IamRequest & { role: string; by: string }> {
  const roleOf = (arn: unknown) => (arn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const start = (target: unknown) => ({
    action: 'states:StartExecution',
    resource: unqualified(String(deployedValue(target, resources))),
  });
  return Object.entries(resources).flatMap(([id, { Type, Properties = {} }]) => {
    if (Type === 'AWS::Events::Rule')
      return (Properties.Targets as Array<{ Arn: unknown; RoleArn?: unknown }>).flatMap((target) =>
        target.RoleArn === undefined
          ? []
          : [{ ...start(target.Arn), role: roleOf(target.RoleArn), by: `rule ${id}` }],
      );
    if (Type !== 'AWS::Pipes::Pipe') return [];
    const role = roleOf(Properties.RoleArn);
    const queue = String(deployedValue(Properties.Source, resources));
    const reads = ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'].map((action) => ({
      action,
      resource: queue,
    }));
    return [...reads, start(Properties.Target)].map((request) => ({ ...request, role, by: `pipe ${id}` }));
  });
}

/** A template value with its tokens resolved to what they are deployed in the test account. */
export function deployedValue(value: unknown, resources: Record<string, TemplateResource>): unknown {
  const resolve = (inner: unknown) => deployedValue(inner, resources);
  if (Array.isArray(value)) return value.map(resolve);
  if (typeof value !== 'object' || value === null) return value;
  const token = value as Record<string, unknown>;
  if ('Ref' in token) return refOf(String(token.Ref), resources);
  if ('Fn::GetAtt' in token) {
    const [id, attribute] = token['Fn::GetAtt'] as [string, string];
    return attributeOf(id, attribute, resources);
  }
  if ('Fn::Join' in token) {
    const [separator, parts] = token['Fn::Join'] as [string, unknown[]];
    return parts.map(resolve).join(separator);
  }
  if ('Fn::Split' in token) {
    const [separator, text] = token['Fn::Split'] as [string, unknown];
    return String(resolve(text)).split(separator);
  }
  if ('Fn::Select' in token) {
    const [index, list] = token['Fn::Select'] as [number, unknown];
    return (resolve(list) as unknown[])[Number(index)];
  }
  return Object.fromEntries(Object.entries(token).map(([key, inner]) => [key, resolve(inner)]));
}

function refOf(id: string, resources: Record<string, TemplateResource>): string {
  const pseudo = PSEUDO[id];
  if (pseudo !== undefined) return pseudo;
  const resource = resources[id];
  const properties = resource?.Properties ?? {};
  switch (resource?.Type) {
    case 'AWS::StepFunctions::StateMachine':
      return stateMachineArn(id);
    case 'AWS::StepFunctions::StateMachineVersion':
      return `${deployedValue(properties.StateMachineArn, resources)}:1`;
    case 'AWS::StepFunctions::StateMachineAlias': {
      const routes = (properties.DeploymentPreference ??
        (properties.RoutingConfiguration as unknown[])?.[0]) as {
        StateMachineVersionArn: unknown;
      };
      const version = String(deployedValue(routes.StateMachineVersionArn, resources));
      return `${unqualified(version)}:${properties.Name}`;
    }
    case 'AWS::Lambda::Version':
      return `${functionArn(String(deployedValue(properties.FunctionName, resources)))}:1`;
    case 'AWS::SQS::Queue':
      return `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/${id}`;
    case 'AWS::S3::Bucket':
      // Bucket names are lower case: its ARN (attributeOf) and its name name the same bucket.
      return id.toLowerCase();
    default:
      // A table's, a function's, a bus's name: its logical id, as the environment has it.
      return id;
  }
}

function attributeOf(id: string, attribute: string, resources: Record<string, TemplateResource>): string {
  const type = resources[id]?.Type;
  if (attribute !== 'Arn') return id;
  switch (type) {
    case 'AWS::DynamoDB::GlobalTable':
      return tableArn(id);
    case 'AWS::Lambda::Function':
      return functionArn(id);
    case 'AWS::IAM::Role':
      return `arn:aws:iam::${ACCOUNT}:role/${id}`;
    case 'AWS::SQS::Queue':
      return `arn:aws:sqs:${REGION}:${ACCOUNT}:${id}`;
    case 'AWS::S3::Bucket':
      return `arn:aws:s3:::${id.toLowerCase()}`;
    case 'AWS::Events::EventBus':
      return `arn:aws:events:${REGION}:${ACCOUNT}:event-bus/${id}`;
    case 'AWS::Logs::LogGroup':
      return `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${id}:*`;
    case 'AWS::SNS::Topic':
      return `arn:aws:sns:${REGION}:${ACCOUNT}:${id}`;
    default:
      throw new Error(`No ARN as deployed for ${type} ${id}: add its type to attributeOf.`);
  }
}

/** The statements of every identity policy attached to `role`, tokens resolved. */
export function roleStatements(role: string, resources: Record<string, TemplateResource>): Statement[] {
  const attached = Object.values(resources).filter(
    ({ Type, Properties }) =>
      Type === 'AWS::IAM::Policy' &&
      (Properties?.Roles as unknown[] | undefined)?.some(
        (ref) => JSON.stringify(ref) === JSON.stringify({ Ref: role }),
      ),
  );
  const inline =
    (resources[role]?.Properties?.Policies as Array<{ PolicyDocument: unknown }> | undefined) ?? [];
  const documents = [
    ...attached.map(({ Properties }) => Properties?.PolicyDocument),
    ...inline.map(({ PolicyDocument }) => PolicyDocument),
  ];
  return documents.flatMap(
    (document) => (deployedValue(document, resources) as { Statement: Statement[] }).Statement,
  );
}

/**
 * Task responses, which the service authorization reference lists without resource types (so the
 * simulator wants `*`) but Step Functions authorizes on the state machine that issued the token:
 * its AccessDenied names that ARN, and a grant on it is what works (CDK's `grantTaskResponse`).
 */
const AUTHORIZED_ON_THE_STATE_MACHINE: ReadonlySet<string> = new Set([
  'states:SendTaskSuccess',
  'states:SendTaskFailure',
  'states:SendTaskHeartbeat',
]);

/** Whether `statements`, as one role's identity policy, allow `request`. */
export async function allows(
  role: string,
  statements: readonly Statement[],
  request: IamRequest,
): Promise<boolean> {
  const simulation: Simulation = {
    request: {
      principal: `arn:aws:iam::${ACCOUNT}:role/${role}`,
      action: request.action,
      resource: { resource: request.resource, accountId: ACCOUNT },
      contextVariables: request.context ?? {},
    },
    identityPolicies: [{ name: role, policy: { Version: '2012-10-17', Statement: statements } }],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
  };
  if (AUTHORIZED_ON_THE_STATE_MACHINE.has(request.action))
    return runUnsafeSimulation(simulation, {}) === 'Allowed';
  const result = await runSimulation(simulation, {});
  if (result.resultType === 'error')
    throw new Error(
      `IAM could not simulate ${request.action} on ${request.resource}: ${JSON.stringify(result.errors)}`,
    );
  return result.overallResult === 'Allowed';
}
