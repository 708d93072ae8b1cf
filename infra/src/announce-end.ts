import { TURN_EVENT_SOURCE } from '@agentstep/protocol';
import { Duration } from 'aws-cdk-lib';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { JsonPath, type TaskInput, type TaskStateBase, Timeout } from 'aws-cdk-lib/aws-stepfunctions';
import { EventBridgePutEvents } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';

/** How long announcing an end may take before Step Functions gives up on the attempt. */
const PUBLISH_TIMEOUT = Duration.seconds(60);

/** What an end announcement says, and where. */
export interface AnnounceEndProps {
  readonly detailType: string;
  readonly detail: TaskInput;
  /** @default the account's default event bus */
  readonly eventBus?: IEventBus | undefined;
}

/**
 * A state that puts one `source: "agentstep"` event on the bus (`events:putEvents`, no Lambda),
 * retried on failure, its result discarded so the state passes through unchanged: how a turn's and
 * a workflow run's ends are announced.
 */
export function announceEnd(scope: Construct, id: string, props: AnnounceEndProps): TaskStateBase {
  const { detailType, detail, eventBus } = props;
  return new EventBridgePutEvents(scope, id, {
    entries: [{ source: TURN_EVENT_SOURCE, detailType, detail, ...(eventBus ? { eventBus } : {}) }],
    resultPath: JsonPath.DISCARD,
    taskTimeout: Timeout.duration(PUBLISH_TIMEOUT),
  }).addRetry({ interval: Duration.seconds(1), maxAttempts: 3, backoffRate: 2 });
}
