import type { TurnResult } from '@agentstep/protocol';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { type TurnEvents, turnEventEntry } from './turn-events.js';

/** {@link TurnEvents} on EventBridge: one PutEvents per turn end; a refused entry is an error. */
export class EventBridgeTurnEvents implements TurnEvents {
  readonly #client: EventBridgeClient;
  readonly #eventBusName: string | undefined;

  /** @param eventBusName the bus; the account's default bus when absent */
  constructor(eventBusName?: string, client: EventBridgeClient = new EventBridgeClient({})) {
    this.#client = client;
    this.#eventBusName = eventBusName;
  }

  async publish(result: TurnResult): Promise<void> {
    const { FailedEntryCount, Entries } = await this.#client.send(
      new PutEventsCommand({ Entries: [turnEventEntry(result, this.#eventBusName)] }),
    );
    if (FailedEntryCount)
      throw new Error(
        `EventBridge refused the end of turn ${result.turn}: ${Entries?.[0]?.ErrorMessage ?? 'no reason given'}.`,
      );
  }
}
