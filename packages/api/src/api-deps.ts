import type { Clock, EventLog, ExecutionStarter, OutcomeStore, UsageLedger } from '@agentstep/runtime';
import type { LogChanges } from './log-changes.js';
import type { TenantOf } from './tenants.js';

/** What the API runs on: the stores, how turns start, and who is calling. */
export interface ApiDeps {
  log: EventLog;
  outcomes: OutcomeStore;
  clock: Clock;
  usage: UsageLedger;
  starter: ExecutionStarter;
  tenantOf: TenantOf;
  /** Wakes streams as soon as a session's log grows; without it, streams read every `pollMs`. */
  changes?: LogChanges;
  /** How often a stream reads the log when nothing wakes it. @default 250 ms */
  pollMs?: number;
  /** The longest quiet spell on a stream before a comment line keeps it open. @default 15 s */
  heartbeatMs?: number;
  /** How long a cancelled turn has to end itself before its execution is stopped. @default 1 s */
  cancelGraceMs?: number;
  /** How long one stream lasts before it closes cleanly for the client to resume. @default no limit */
  streamLimitMs?: number;
}
