import type {
  ApprovalTokenStore,
  Ceiling,
  Clock,
  EventLog,
  ExecutionStarter,
  OutcomeStore,
  SessionDirectory,
  TaskTokens,
  TenantControls,
  TenantSpend,
  Toolset,
  TurnQueue,
  UsageLedger,
  WorkflowStarter,
} from '@agentstep/runtime';
import type { A2aAgentInfo } from './a2a/a2a-card.js';
import type { LiveSteps } from './live-steps.js';
import type { LogChanges } from './log-changes.js';
import type { SessionFeeds } from './session-feeds.js';
import type { TenantOf } from './tenants.js';

/** What the API runs on: the stores, how turns and workflow runs start, how waiting calls wake, and who is calling. */
export interface ApiDeps {
  log: EventLog;
  outcomes: OutcomeStore;
  clock: Clock;
  usage: UsageLedger;
  /** The sessions and workflow runs each tenant started, for listing them. */
  directory: SessionDirectory;
  starter: ExecutionStarter;
  /** The messages waiting for a running turn to end (`ifBusy: "enqueue"` / `"interrupt"`). */
  queue: TurnQueue;
  /** Starts workflow runs' executions. */
  workflows: WorkflowStarter;
  tenantOf: TenantOf;
  /** Where AwaitApproval keeps the task token of each call waiting for a person. */
  approvalTokens: ApprovalTokenStore;
  /** Wakes a waiting call's task once its approval is decided or its turn cancelled. */
  taskTokens: TaskTokens;
  /** The agent's tools: a decision's edited arguments must pass the call's tool schema. */
  toolset: Toolset;
  /** Operators' controls of tenants: a suspended tenant starts no turn. @default none: no tenant is ever suspended */
  tenantControls?: TenantControls;
  /** Each tenant's spend: a tenant past its ceiling starts no turn. @default none: no tenant is capped */
  tenantSpend?: TenantSpend;
  /** Every tenant's ceiling, unless an operator set the tenant one of its own. @default none */
  tenantCeiling?: Ceiling;
  /** Wakes streams as soon as a session's log grows; without it, streams read every `pollMs`. */
  changes?: LogChanges;
  /**
   * The one reader per session that every stream of the session shares in this process.
   * @default one made for these deps at the first stream
   */
  feeds?: SessionFeeds;
  /** What model steps write as they stream, for streams to send before the step is logged. @default none: streams send logged events only */
  live?: LiveSteps;
  /** How often a stream reads the log when nothing wakes it. @default 250 ms */
  pollMs?: number;
  /** The longest quiet spell on a stream before a comment line keeps it open. @default 15 s */
  heartbeatMs?: number;
  /** How long a cancelled turn has to end itself before its execution is stopped. @default 1 s */
  cancelGraceMs?: number;
  /**
   * How long a chat or AG-UI turn runs on once the last client following it has left (its stop, a
   * reload, a dropped connection) before it is cancelled: a client that comes back within it keeps
   * the turn. @default 10 s
   */
  leaveGraceMs?: number;
  /** How long one stream lasts before it closes cleanly for the client to resume. @default no limit */
  streamLimitMs?: number;
  /**
   * The origins a browser page may call the API from (CORS), each as its `Origin` header says it
   * (`https://app.example.com`); a preflight from one passes before `tenantOf`. @default none: no CORS headers
   */
  corsOrigins?: readonly string[];
  /**
   * What the A2A agent card says of the agent and of how callers authenticate (read for each card:
   * a reload of the agent may change it). @default an agent named "agent", bearer tokens
   */
  agentInfo?: () => A2aAgentInfo;
}
