// DynamoDB adapters, apart from the core so that importing the runtime does not load the AWS SDK.
export { DynamoApprovalTokenStore } from './approvals/dynamo-approval-token-store.js';
export { DynamoEventLog, type DynamoEventLogOptions } from './event-log/dynamo-event-log.js';
export { DynamoOutcomeStore, type DynamoOutcomeStoreOptions } from './outcomes/dynamo-outcome-store.js';
export { DynamoTurnQueue } from './queue/dynamo-turn-queue.js';
export { DynamoSessionDirectory } from './table/dynamo-session-directory.js';
export {
  DRAFT_EXPIRY_ATTRIBUTE,
  DynamoStepDrafts,
  type DynamoStepDraftsOptions,
} from './table/dynamo-step-drafts.js';
export { DynamoStepStream, type DynamoStepStreamOptions } from './table/dynamo-step-stream.js';
export { dynamoStores } from './table/dynamo-stores.js';
export {
  type DynamoTable,
  type DynamoTableOptions,
  documentClientOf,
  dynamoTable,
} from './table/dynamo-table.js';
export { DynamoTenantControls } from './table/dynamo-tenant-controls.js';
export { DynamoTenantSpend } from './table/dynamo-tenant-spend.js';
export { EVENT_LOG_KEYS, ensureEventLogTable } from './table/ensure-event-log-table.js';
export { DynamoUsageLedger, type DynamoUsageLedgerOptions } from './usage/dynamo-usage-ledger.js';
