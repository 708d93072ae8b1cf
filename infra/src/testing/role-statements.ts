import type { Template } from 'aws-cdk-lib/assertions';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { logicalId } from './synth-agent.js';

/** What the loop's steps, and the API that starts their turns, may do on the table (sorted): no deletes or scans. */
export const LOOP_TABLE_ACTIONS = [
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Query',
  'dynamodb:UpdateItem',
];

/** One statement of an IAM policy document, as the template gives it. */
export interface Statement {
  Action: string | string[];
  Effect: string;
  Resource: unknown;
  [key: string]: unknown;
}

/** Every statement of the policies attached to a function's role, a role, or a role's logical id. */
export function roleStatements(template: Template, grantee: IFunction | IRole | string): Statement[] {
  const role =
    typeof grantee === 'string' ? grantee : logicalId('functionArn' in grantee ? grantee.role : grantee);
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter(({ Properties }) => JSON.stringify(Properties.Roles).includes(`"${role}"`))
    .flatMap(({ Properties }) => Properties.PolicyDocument.Statement);
}

/** The actions of `statements` that start with `prefix` (`dynamodb:`, `states:`, …), sorted. */
export function actionsOf(statements: readonly Statement[], prefix: string): string[] {
  return statements
    .flatMap((statement) => [statement.Action].flat())
    .filter((action) => action.startsWith(prefix))
    .sort();
}

/** The statements of `grantee`'s role that grant Secrets Manager actions. */
export function secretStatements(template: Template, grantee: IFunction | IRole | string): Statement[] {
  return roleStatements(template, grantee).filter((statement) =>
    JSON.stringify(statement.Action).includes('secretsmanager:'),
  );
}
