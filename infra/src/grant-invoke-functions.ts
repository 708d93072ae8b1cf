import { ArnFormat, Stack } from 'aws-cdk-lib';
import { Grant } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/**
 * Lets `grantee` invoke each of `functions` (`lambda:InvokeFunction`): an ARN as given, a name
 * (optionally `name:qualifier`) as a function of the grantee's account and region.
 */
export function grantInvokeFunctions(grantee: IFunction, functions: readonly string[]): void {
  if (functions.length === 0) return;
  const arnOf = (name: string) =>
    name.startsWith('arn:')
      ? name
      : Stack.of(grantee).formatArn({
          service: 'lambda',
          resource: 'function',
          resourceName: name,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        });
  Grant.addToPrincipal({
    grantee,
    actions: ['lambda:InvokeFunction'],
    resourceArns: [...new Set(functions.map(arnOf))],
  });
}
