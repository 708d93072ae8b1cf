import { RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * A Lambda function's own role, allowed to write only to its own log group (kept a month): no AWS
 * managed policy. `ids` name the two constructs in `scope`.
 */
export function functionRole(
  scope: Construct,
  ids: { role: string; logs: string },
): { role: Role; logGroup: LogGroup } {
  const logGroup = new LogGroup(scope, ids.logs, {
    retention: RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const role = new Role(scope, ids.role, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  logGroup.grantWrite(role);
  return { role, logGroup };
}
