import { TURN_EVENT_SOURCE, TURN_EVENT_TYPES } from '@agentstep/protocol';
import { Duration } from 'aws-cdk-lib';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** Props of {@link TurnEndedRule}. */
export interface TurnEndedRuleProps {
  /**
   * The function each turn's end goes to: StartQueuedTurn, which starts the first queued message of
   * the session whose turn ended; ExportTraces, which exports the turn's spans.
   */
  readonly target: IFunction;
  /** What the rule does, as its description says. */
  readonly description: string;
  /** The bus turns' ends are announced on. @default - the account's default event bus */
  readonly eventBus?: IEventBus;
}

/**
 * Routes every turn's end announced on the bus (`source: "agentstep"`, `Agent Turn Completed` or
 * `Agent Turn Failed`, by the loop or by CloseStoppedTurn) to a function, whichever way the turn
 * ended: a message queued behind it starts, its traces are exported.
 */
export class TurnEndedRule extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: TurnEndedRuleProps) {
    super(scope, id);
    this.rule = new Rule(this, 'Rule', {
      description: props.description,
      ...(props.eventBus ? { eventBus: props.eventBus } : {}),
      eventPattern: {
        source: [TURN_EVENT_SOURCE],
        detailType: [TURN_EVENT_TYPES.completed, TURN_EVENT_TYPES.failed],
      },
      targets: [new LambdaFunction(props.target, { retryAttempts: 8, maxEventAge: Duration.hours(2) })],
    });
  }
}
