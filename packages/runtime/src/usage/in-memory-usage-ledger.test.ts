import { describeUsageLedgerContract } from '../testing/usage-ledger-contract.js';
import { InMemoryUsageLedger } from './in-memory-usage-ledger.js';

describeUsageLedgerContract('InMemoryUsageLedger', () => new InMemoryUsageLedger());
