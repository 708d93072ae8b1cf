export { AppendConflictError, SessionBusyError } from './errors.js';
export { DynamoEventLog, type DynamoEventLogOptions } from './event-log/dynamo-event-log.js';
export type { AppendRequest, AppendResult, EventLog, NewEvent } from './event-log/event-log.js';
export { EVENT_LOG_KEYS, ensureEventLogTable } from './event-log/event-log-table.js';
export { InMemoryEventLog } from './event-log/in-memory-event-log.js';
export { DynamoOutcomeStore, type DynamoOutcomeStoreOptions } from './outcomes/dynamo-outcome-store.js';
export { InMemoryOutcomeStore } from './outcomes/in-memory-outcome-store.js';
export type { CallRef, OutcomeStore } from './outcomes/outcome-store.js';
