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

/**
 * Resolves the CloudFormation intrinsics CDK writes into a state machine definition: `Fn::Join`,
 * `Ref` (pseudo parameters, or a resource's logical id as its name) and `Fn::GetAtt … Arn`.
 */
export function resolveTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolveTokens);
  if (typeof value !== 'object' || value === null) return value;
  const token = value as Record<string, unknown>;
  if ('Fn::Join' in token) {
    const [separator, parts] = token['Fn::Join'] as [string, unknown[]];
    return parts.map(resolveTokens).join(separator);
  }
  if ('Ref' in token) return PSEUDO_PARAMETERS[String(token.Ref)] ?? String(token.Ref);
  if ('Fn::GetAtt' in token) {
    const [logicalId, attribute] = token['Fn::GetAtt'] as [string, string];
    if (attribute !== 'Arn') throw new Error(`Cannot resolve Fn::GetAtt ${logicalId}.${attribute} locally.`);
    return localFunctionArn(logicalId);
  }
  return Object.fromEntries(Object.entries(token).map(([key, inner]) => [key, resolveTokens(inner)]));
}
