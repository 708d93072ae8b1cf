import { TURN_EVENT_SOURCE, TURN_EVENT_TYPES } from '@agentstep/protocol';
import { Duration } from 'aws-cdk-lib';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** Props of {@link TurnEndedRule}. */
export interface TurnEndedRuleProps {
  /** StartQueuedTurn: starts the first queued message of the session whose turn ended. */
  readonly starter: IFunction;
  /** The bus turns' ends are announced on. @default - the account's default event bus */
  readonly eventBus?: IEventBus;
}

/**
 * Routes every turn's end announced on the bus (`source: "agentstep"`, `Agent Turn Completed` or
 * `Agent Turn Failed`, by the loop or by CloseStoppedTurn) to StartQueuedTurn, so a message queued
 * behind a running turn starts when that turn ends, whichever way it ended.
 */
export class TurnEndedRule extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: TurnEndedRuleProps) {
    super(scope, id);
    this.rule = new Rule(this, 'Rule', {
      description: 'Starts the next queued message of an AgentStep session when its turn ends.',
      ...(props.eventBus ? { eventBus: props.eventBus } : {}),
      eventPattern: {
        source: [TURN_EVENT_SOURCE],
        detailType: [TURN_EVENT_TYPES.completed, TURN_EVENT_TYPES.failed],
      },
      targets: [new LambdaFunction(props.starter, { retryAttempts: 8, maxEventAge: Duration.hours(2) })],
    });
  }
}
