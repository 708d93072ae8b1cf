import type { InMemoryEventLog } from '../event-log/in-memory-event-log.js';
import { ledgerOf } from './ledger-of.js';
import { MODEL_STEP_KEY_PREFIX } from './model-step-key.js';
import type { StepUsage } from './step-usage.js';
import type { UsageLedger } from './usage-ledger.js';

/** A {@link UsageLedger} read from an {@link InMemoryEventLog}'s step notes, as DynamoDB reads its table. */
export class InMemoryUsageLedger implements UsageLedger {
  readonly #log: InMemoryEventLog;

  constructor(log: InMemoryEventLog) {
    this.#log = log;
  }

  async list(session: string): Promise<StepUsage[]> {
    return ledgerOf(session, this.#log.appendedUnder(session, MODEL_STEP_KEY_PREFIX));
  }
}
