import { ENV_NAMES } from '@agentstep/protocol';
import { Duration } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { BundledLambda } from './bundled-lambda.js';
import { grantOperatorTableAccess } from './grant-table-access.js';

/** Props of {@link TenantOperator}. */
export interface TenantOperatorProps {
  readonly table: TableV2;
  /** The loop, whose running executions a suspension stops. */
  readonly stateMachine: StateMachine;
}

/**
 * The deployed `agentstep tenants` (decisions 0041 and 0043): a function invoked with an operator's
 * command (`{"action": "suspend", "tenant": "…"}`) that suspends or resumes a tenant or every
 * tenant, sets a tenant's own ceiling, or shows it with its spend; a suspension cancels the
 * tenant's running turns at once. IAM is its only way in: no route of the HTTP API reaches it, and
 * only principals given `AgentStep.grantOperate` may invoke it.
 */
export class TenantOperator extends Construct {
  readonly function: LambdaFunction;

  constructor(scope: Construct, id: string, props: TenantOperatorProps) {
    super(scope, id);
    this.function = new BundledLambda(this, 'operator', {
      folder: 'operator',
      // A suspension describes every running execution and cancels the tenant's: minutes at scale.
      timeout: Duration.minutes(5),
      environment: {
        [ENV_NAMES.table]: props.table.tableName,
        [ENV_NAMES.stateMachine]: props.stateMachine.stateMachineArn,
      },
    }).function;
    grantOperatorTableAccess(props.table, this.function);
    // Find the running turns (list the executions, read each one's input) and stop a suspended
    // tenant's at once: a stopped execution's calls waiting for approval need no waking.
    props.stateMachine.grants.actions(this.function, 'states:ListExecutions');
    props.stateMachine.grants.execution(this.function, 'states:DescribeExecution', 'states:StopExecution');
  }
}
