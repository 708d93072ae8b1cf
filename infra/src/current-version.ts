import type { IVersion, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';

/**
 * `fn.currentVersion`, typed as the `IVersion` it is: a new Lambda version whenever the function's
 * code or configuration changes, the earlier ones kept (CDK retains them) for the executions that
 * still call them (decision 0042).
 */
export function currentVersion(fn: LambdaFunction): IVersion {
  // CDK's Version declares `role` as `IRole | undefined`, which exactOptionalPropertyTypes tells
  // apart from IFunction's optional `role`: the same value either way.
  return fn.currentVersion as IVersion;
}
