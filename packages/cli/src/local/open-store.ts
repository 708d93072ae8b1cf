import { join } from 'node:path';
import {
  closeOrphanedTurns,
  DynamoTaskTokenCompletions,
  ExecutionOwners,
  JavaMissingError,
  openSharedDynamoDbLocal,
  type StoreChange,
  type TaskTokenCompletions,
} from '@agentstep/local';
import {
  type ApprovalTokenStore,
  type EventLog,
  inMemoryStores,
  type OutcomeStore,
  type SessionDirectory,
  systemClock,
  type TenantControls,
  type TenantSpend,
  type TurnQueue,
  type UsageLedger,
} from '@agentstep/runtime';
import { dynamoStores, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** Where a local run keeps its log. */
export type StoreKind = 'dynamodb-local' | 'memory';

/** An open event log, outcome store, usage ledger, approval tokens, session directory and turn queue, and how to close them. */
export interface OpenStore {
  kind: StoreKind;
  log: EventLog;
  outcomes: OutcomeStore;
  usage: UsageLedger;
  approvalTokens: ApprovalTokenStore;
  directory: SessionDirectory;
  /** The messages waiting for a running turn to end. */
  queue: TurnQueue;
  /** Operators' controls of tenants (`agentstep tenants suspend`, `set-ceiling`). */
  tenantControls: TenantControls;
  /** Each tenant's spend per day and month, for its ceiling. */
  tenantSpend: TenantSpend;
  /** Where processes sharing the store complete each other's task tokens; none in memory. */
  completions?: TaskTokenCompletions;
  /**
   * Hears when the store stops under this process (`lost`) and when it serves again
   * (`restored`); returns how to stop listening. None in memory, which cannot stop.
   */
  onChange?: (listener: (change: StoreChange) => void) => () => void;
  close(): Promise<void>;
}

const TABLE = 'agentstep-events';

/**
 * Opens the local store: the DynamoDB Local every process on `dataDir` shares, its data kept
 * between runs, or process memory. Without Java, falls back to memory and says so through `notice`.
 * `AGENTSTEP_STORE_IDLE_SECONDS` keeps DynamoDB Local running that long after its last user leaves
 * (default 0), so commands that follow find it running. Turns a dead process left running on the
 * store (recorded in `executions/` of `dataDir`) are closed as it opens, whatever the command.
 */
export async function openStore(
  kind: StoreKind,
  dataDir: string,
  notice: (text: string) => void,
): Promise<OpenStore> {
  if (kind === 'dynamodb-local') {
    try {
      const local = await openSharedDynamoDbLocal(dataDir, { idleMs: idleSeconds() * 1000 });
      const store = await dynamoDbStore(DynamoDBDocumentClient.from(local.client), TABLE, local.stop);
      await closeOrphanedTurns(executionOwners(dataDir), { ...store, clock: systemClock });
      return { ...store, onChange: local.onChange };
    } catch (error) {
      if (!(error instanceof JavaMissingError)) throw error;
      notice(`${error.message} Using the in-memory event log instead: this run's events end with it.`);
    }
  }
  return { kind: 'memory', ...inMemoryStores(), close: async () => {} };
}

/**
 * The store on `table` of the DynamoDB behind `client` (created when missing), as a local run opens
 * it; `close` runs when the run closes it.
 */
export async function dynamoDbStore(
  client: DynamoDBDocumentClient,
  table: string,
  close: () => Promise<void>,
): Promise<OpenStore> {
  await ensureEventLogTable(client, table);
  const completions = new DynamoTaskTokenCompletions({ tableName: table, client });
  return { kind: 'dynamodb-local', ...dynamoStores(table, client), completions, close };
}

function idleSeconds(): number {
  const seconds = Number(process.env.AGENTSTEP_STORE_IDLE_SECONDS ?? 0);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

/** Where the processes on the store of `dataDir` record the turns they run. */
export function executionOwners(dataDir: string): ExecutionOwners {
  return new ExecutionOwners(join(dataDir, 'executions'));
}
