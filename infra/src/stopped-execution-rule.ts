import { STOPPED_EXECUTION_STATUSES } from '@agentstep/protocol';
import { Duration } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';

/** Props of {@link StoppedExecutionRule}. */
export interface StoppedExecutionRuleProps {
  readonly stateMachine: IStateMachine;
  /** CloseStoppedTurn: closes the turn of the execution that stopped. */
  readonly closer: IFunction;
}

/**
 * Routes every execution of the loop that failed, timed out or was aborted (a StopExecution, the
 * console) to CloseStoppedTurn, so a turn whose execution died without closing it still ends in
 * the log with each unfinished call answered and its session freed.
 */
export class StoppedExecutionRule extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: StoppedExecutionRuleProps) {
    super(scope, id);
    this.rule = new Rule(this, 'Rule', {
      description: 'Closes the turns of AgentStep executions that stopped without closing them.',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: {
          status: [...STOPPED_EXECUTION_STATUSES],
          stateMachineArn: [props.stateMachine.stateMachineArn],
        },
      },
      targets: [new LambdaFunction(props.closer, { retryAttempts: 8, maxEventAge: Duration.hours(2) })],
    });
  }
}
