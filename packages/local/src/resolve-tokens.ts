/** The fixed account and region that stand in for AWS's when running locally. */
export const LOCAL_ACCOUNT = '123456789012';
export const LOCAL_REGION = 'us-east-1';

const PSEUDO_PARAMETERS: Readonly<Record<string, string>> = {
  'AWS::Partition': 'aws',
  'AWS::Region': LOCAL_REGION,
  'AWS::AccountId': LOCAL_ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
};

/** The local ARN of a Lambda function, named by its logical id. */
export function localFunctionArn(logicalId: string): string {
  return `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${logicalId}`;
}

/** The local ARN of a state machine, named by its logical id. */
export function localStateMachineArn(logicalId: string): string {
  return `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:${logicalId}`;
}

/** A template's resources by logical id, as far as resolving references to them needs. */
export type TemplateResources = Readonly<
  Record<string, { Type: string; Properties?: Record<string, unknown> }>
>;

/**
 * Resolves the CloudFormation intrinsics CDK writes into a state machine definition: `Fn::Join`,
 * `Ref` (pseudo parameters, or a resource's logical id as its name) and `Fn::GetAtt … Arn`. Given
 * the template's `resources`, a reference to a Lambda version is its function's `$LATEST` and one
 * to a state machine alias is its state machine qualified by the alias's name: locally there are
 * no versions, the code and definition on disk are the only ones (decision 0042).
 */
export function resolveTokens(value: unknown, resources: TemplateResources = {}): unknown {
  const resolve = (inner: unknown) => resolveTokens(inner, resources);
  if (Array.isArray(value)) return value.map(resolve);
  if (typeof value !== 'object' || value === null) return value;
  const token = value as Record<string, unknown>;
  if ('Fn::Join' in token) {
    const [separator, parts] = token['Fn::Join'] as [string, unknown[]];
    return parts.map(resolve).join(separator);
  }
  if ('Ref' in token) {
    const name = String(token.Ref);
    return PSEUDO_PARAMETERS[name] ?? qualifiedArn(name, resources) ?? name;
  }
  if ('Fn::GetAtt' in token) {
    const [logicalId, attribute] = token['Fn::GetAtt'] as [string, string];
    if (attribute !== 'Arn') throw new Error(`Cannot resolve Fn::GetAtt ${logicalId}.${attribute} locally.`);
    return qualifiedArn(logicalId, resources) ?? localFunctionArn(logicalId);
  }
  return Object.fromEntries(Object.entries(token).map(([key, inner]) => [key, resolve(inner)]));
}

/** The local ARN of a Lambda version or a state machine alias or version; `undefined` for anything else. */
function qualifiedArn(logicalId: string, resources: TemplateResources): string | undefined {
  const resource = resources[logicalId];
  const properties = resource?.Properties ?? {};
  const referenced = (property: unknown) => String((property as { Ref?: unknown } | undefined)?.Ref);
  switch (resource?.Type) {
    case 'AWS::Lambda::Version':
      return `${localFunctionArn(referenced(properties.FunctionName))}:$LATEST`;
    case 'AWS::StepFunctions::StateMachineVersion':
      return localStateMachineArn(referenced(properties.StateMachineArn));
    case 'AWS::StepFunctions::StateMachineAlias': {
      const { DeploymentPreference, RoutingConfiguration, Name } = properties as {
        DeploymentPreference?: { StateMachineVersionArn: unknown };
        RoutingConfiguration?: Array<{ StateMachineVersionArn: unknown }>;
        Name: string;
      };
      const version =
        DeploymentPreference?.StateMachineVersionArn ?? RoutingConfiguration?.[0]?.StateMachineVersionArn;
      return `${resolveTokens(version, resources)}:${Name}`;
    }
    default:
      return undefined;
  }
}
