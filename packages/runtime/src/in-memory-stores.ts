import { InMemoryApprovalTokenStore } from './approvals/approval-token-store.js';
import { InMemoryEventLog } from './event-log/in-memory-event-log.js';
import { InMemoryOutcomeStore } from './outcomes/in-memory-outcome-store.js';
import { InMemoryTurnQueue } from './queue/in-memory-turn-queue.js';
import { InMemorySessionDirectory } from './session/session-directory.js';
import { InMemoryTenantControls } from './tenants/tenant-controls.js';
import { InMemoryTenantSpend } from './tenants/tenant-spend.js';
import { InMemoryUsageLedger } from './usage/in-memory-usage-ledger.js';

/**
 * The event log, the outcome store, the usage ledger (a view of the log), the approvals' task
 * tokens, the session directory, the queues of waiting messages, the operators' tenant controls and
 * each tenant's spend in process memory.
 */
export function inMemoryStores() {
  const log = new InMemoryEventLog();
  return {
    log,
    outcomes: new InMemoryOutcomeStore(),
    usage: new InMemoryUsageLedger(log),
    approvalTokens: new InMemoryApprovalTokenStore(),
    directory: new InMemorySessionDirectory(),
    queue: new InMemoryTurnQueue(),
    tenantControls: new InMemoryTenantControls(),
    tenantSpend: new InMemoryTenantSpend(),
  };
}
