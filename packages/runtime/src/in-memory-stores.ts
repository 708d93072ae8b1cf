import { InMemoryEventLog } from './event-log/in-memory-event-log.js';
import { InMemoryOutcomeStore } from './outcomes/in-memory-outcome-store.js';
import { InMemoryUsageLedger } from './usage/in-memory-usage-ledger.js';

/** The event log, the outcome store and the usage ledger in process memory. */
export function inMemoryStores() {
  return {
    log: new InMemoryEventLog(),
    outcomes: new InMemoryOutcomeStore(),
    usage: new InMemoryUsageLedger(),
  };
}
