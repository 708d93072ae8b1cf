import type { StepUsage } from './step-usage.js';
import type { UsageLedger } from './usage-ledger.js';

/** A {@link UsageLedger} in process memory, with the same contract as DynamoDB. */
export class InMemoryUsageLedger implements UsageLedger {
  readonly #entries: StepUsage[] = [];

  async record(entry: StepUsage): Promise<void> {
    this.#entries.push(structuredClone(entry));
  }

  async list(session: string): Promise<StepUsage[]> {
    return this.#entries
      .filter((entry) => entry.session === session)
      .sort((a, b) => a.at - b.at)
      .map((entry) => structuredClone(entry));
  }
}
