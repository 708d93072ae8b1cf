import { InMemoryEventLog } from '../event-log/in-memory-event-log.js';
import { describeUsageLedgerContract } from '../testing/usage-ledger-contract.js';
import { InMemoryUsageLedger } from './in-memory-usage-ledger.js';

describeUsageLedgerContract('InMemoryUsageLedger', () => {
  const log = new InMemoryEventLog();
  return { log, usage: new InMemoryUsageLedger(log) };
});
