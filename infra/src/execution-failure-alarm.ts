import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';

/** Props of {@link ExecutionFailureAlarm}. */
export interface ExecutionFailureAlarmProps {
  readonly stateMachine: StateMachine;
  /** Where the alarm is announced. @default - no action: the alarm is only shown in CloudWatch */
  readonly topic?: ITopic;
}

/**
 * An alarm on any execution of the loop that failed, timed out or was aborted in five minutes: a
 * turn's own failures end in the log, so an execution that failed is one the loop could not end.
 */
export class ExecutionFailureAlarm extends Construct {
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: ExecutionFailureAlarmProps) {
    super(scope, id);
    const { stateMachine } = props;
    this.alarm = new Alarm(this, 'Alarm', {
      alarmDescription: 'Agent loop executions failed, timed out or were aborted.',
      metric: new MathExpression({
        expression: 'failed + timedOut + aborted',
        usingMetrics: {
          failed: stateMachine.metricFailed(),
          timedOut: stateMachine.metricTimedOut(),
          aborted: stateMachine.metricAborted(),
        },
        period: Duration.minutes(5),
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    if (props.topic) this.alarm.addAlarmAction(new SnsAction(props.topic));
  }
}
