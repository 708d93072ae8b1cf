import { TURN_EVENT_SOURCE, TURN_EVENT_TYPES, type TurnResult } from '@agentstep/protocol';

/** Where a turn's end is announced: EventBridge deployed, the local engine's bus locally. */
export interface TurnEvents {
  /** Publishes `Agent Turn Completed` (or `Agent Turn Failed`) with the turn's result as detail. */
  publish(result: TurnResult): Promise<void>;
}

/** The PutEvents entry that announces a turn's end, as the state machine's own publish states write it. */
export function turnEventEntry(result: TurnResult, eventBusName?: string) {
  return {
    Source: TURN_EVENT_SOURCE,
    DetailType: result.status === 'failed' ? TURN_EVENT_TYPES.failed : TURN_EVENT_TYPES.completed,
    Detail: JSON.stringify(result),
    ...(eventBusName === undefined ? {} : { EventBusName: eventBusName }),
  };
}
