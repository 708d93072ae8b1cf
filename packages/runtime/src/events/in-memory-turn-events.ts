import type { TurnResult } from '@agentstep/protocol';
import type { TurnEvents } from './turn-events.js';

/** {@link TurnEvents} in process memory: every published turn result, in order. */
export class InMemoryTurnEvents implements TurnEvents {
  readonly published: TurnResult[] = [];

  async publish(result: TurnResult): Promise<void> {
    this.published.push(structuredClone(result));
  }
}
