import { ArnFormat, Stack } from 'aws-cdk-lib';
import { Grant } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/**
 * Lets `grantee` read each of `secrets` (`secretsmanager:GetSecretValue`, nothing more): an ARN as
 * given (the complete ARN), a name as a secret of the grantee's account and region, whatever the
 * six characters Secrets Manager adds to its ARN (`NAME-??????`).
 */
export function grantReadSecrets(grantee: IFunction, secrets: readonly string[]): void {
  if (secrets.length === 0) return;
  const arnOf = (secret: string) =>
    secret.startsWith('arn:')
      ? secret
      : Stack.of(grantee).formatArn({
          service: 'secretsmanager',
          resource: 'secret',
          resourceName: `${secret}-??????`,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        });
  Grant.addToPrincipal({
    grantee,
    actions: ['secretsmanager:GetSecretValue'],
    resourceArns: [...new Set(secrets.map(arnOf))],
  });
}
