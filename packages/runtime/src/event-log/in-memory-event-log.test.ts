import { describeEventLogContract } from '../testing/event-log-contract.js';
import { InMemoryEventLog } from './in-memory-event-log.js';

describeEventLogContract('InMemoryEventLog', (clock) => new InMemoryEventLog({ clock }));
