import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoApprovalTokenStore } from '../approvals/dynamo-approval-token-store.js';
import { CachedEventLog } from '../event-log/cached-event-log.js';
import { DynamoEventLog } from '../event-log/dynamo-event-log.js';
import type { EventLog } from '../event-log/event-log.js';
import { DynamoOutcomeStore } from '../outcomes/dynamo-outcome-store.js';
import { DynamoTurnQueue } from '../queue/dynamo-turn-queue.js';
import { DynamoUsageLedger } from '../usage/dynamo-usage-ledger.js';
import { DynamoSessionDirectory } from './dynamo-session-directory.js';
import { documentClientOf } from './dynamo-table.js';
import { DynamoTenantControls } from './dynamo-tenant-controls.js';
import { DynamoTenantSpend } from './dynamo-tenant-spend.js';
import { reportStoreUnavailable } from './report-store-unavailable.js';

/**
 * The event log, the outcome store, the usage ledger, the approvals' task tokens, the session
 * directory, the queues of messages waiting for a turn, the operators' tenant controls and each
 * tenant's spend on one table, sharing one client. The log
 * is cached ({@link CachedEventLog}): a warm function reads only what is new in a session. A store
 * that cannot be reached throws `StoreUnavailableError` (see `reportStoreUnavailable`).
 */
export function dynamoStores(
  tableName: string,
  client: DynamoDBDocumentClient = documentClientOf({}),
): {
  log: EventLog;
  outcomes: DynamoOutcomeStore;
  usage: DynamoUsageLedger;
  approvalTokens: DynamoApprovalTokenStore;
  directory: DynamoSessionDirectory;
  queue: DynamoTurnQueue;
  tenantControls: DynamoTenantControls;
  tenantSpend: DynamoTenantSpend;
} {
  reportStoreUnavailable(client);
  return {
    log: new CachedEventLog(new DynamoEventLog({ tableName, client })),
    outcomes: new DynamoOutcomeStore({ tableName, client }),
    usage: new DynamoUsageLedger({ tableName, client }),
    approvalTokens: new DynamoApprovalTokenStore({ tableName, client }),
    directory: new DynamoSessionDirectory({ tableName, client }),
    queue: new DynamoTurnQueue({ tableName, client }),
    tenantControls: new DynamoTenantControls({ tableName, client }),
    tenantSpend: new DynamoTenantSpend({ tableName, client }),
  };
}
