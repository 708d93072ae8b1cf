import type { ToolDescription } from '@agentstep/protocol';
import type { ApprovalRules } from '../approvals/approval-rules.js';
import type { ContextCache } from '../context/context-cache.js';
import type { ContextOptions } from '../context/context-options.js';
import type { EventLog } from '../event-log/event-log.js';
import type { AgentMcp } from '../mcp/turn-mcp-tools.js';
import type { Model } from '../model/model.js';
import type { OutcomeStore } from '../outcomes/outcome-store.js';
import type { StepStream } from '../session/step-stream.js';
import type { CeilingDeps } from '../tenants/step-ceiling.js';
import type { SpendDeps } from './budget-limit.js';
import type { TurnTallies } from './turn-tallies.js';

/** What ModelStep needs. */
export interface ModelStepDeps extends SpendDeps {
  log: EventLog;
  outcomes: OutcomeStore;
  /** Where the model's output goes as it streams, for clients following the session. @default none */
  stream?: StepStream;
  /** The tools the model may call, as the system prompt lists them. */
  tools: readonly ToolDescription[];
  /** The Lambda function that runs each call, by tool name (unknown names included). */
  targetOf(tool: string): string;
  /** Names of tools that run alone (B3). */
  sequentialTools?: ReadonlySet<string>;
  /** Calls of one batch that may run at once. @default 10 */
  maxConcurrency?: number;
  /**
   * Named model profiles, by name: a turn whose user message names one (`model`, a workflow agent's
   * `REQUIRES`) takes every step on it; other turns use `model`. @default none
   */
  models?: Readonly<Record<string, Model>>;
  instructions?: string;
  /** How the context is kept within the model's window. @default - compacted by each model's known window */
  context?: ContextOptions;
  /** Each session's messages rendered so far, extended step by step (one per process). @default none: rendered whole */
  contextCache?: ContextCache;
  /** Each session's runaway-guard counts so far, extended step by step (one per process). @default none: counted whole */
  turnTallies?: TurnTallies;
  /** Which calls wait for a person's approval. @default none */
  approvals?: ApprovalRules;
  /** MCP servers whose tools each turn offers too, listed at its first step and logged. @default none */
  mcp?: AgentMcp;
  /**
   * Keeps each tenant within its spend ceiling (decision 0043): every step reserves before it calls
   * the model. @default none: no tenant is capped
   */
  ceilings?: Omit<CeilingDeps, 'clock' | 'prices'>;
}
