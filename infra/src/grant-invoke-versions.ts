import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IVersion } from 'aws-cdk-lib/aws-lambda';

/**
 * Lets a state machine's role invoke every version of the functions `versions` belong to, never
 * their unqualified `$LATEST`: one role serves every version of the state machine, and an execution
 * still running on an earlier one calls the Lambda versions its revision names (decision 0042).
 */
export function grantInvokeVersions(grantee: IGrantable, versions: readonly IVersion[]): Grant {
  return Grant.addToPrincipal({
    grantee,
    actions: ['lambda:InvokeFunction'],
    resourceArns: versions.map((version) => `${version.lambda.functionArn}:*`),
  });
}
