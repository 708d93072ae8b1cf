import type { StepName } from '@agentstep/cdk';
import { createHandler as advanceTurn } from '@agentstep/functions/advance-turn';
import { createHandler as advanceWorkflow } from '@agentstep/functions/advance-workflow';
import { createHandler as awaitApproval } from '@agentstep/functions/await-approval';
import { createHandler as awaitGate } from '@agentstep/functions/await-gate';
import { createHandler as closeStoppedTurn } from '@agentstep/functions/close-stopped-turn';
import { createHandler as describeTurn } from '@agentstep/functions/describe-turn';
import { createHandler as expireApproval } from '@agentstep/functions/expire-approval';
import { createHandler as failTurn } from '@agentstep/functions/fail-turn';
import { createHandler as finishTurn } from '@agentstep/functions/finish-turn';
import { createHandler as invokeTool } from '@agentstep/functions/invoke-tool';
import { createHandler as modelStep } from '@agentstep/functions/model-step';
import { createHandler as recordToolFailure } from '@agentstep/functions/record-tool-failure';
import { createHandler as releaseTurn } from '@agentstep/functions/release-turn';
import { createHandler as startTurn } from '@agentstep/functions/start-turn';
import type { Budget, PriceTable, RunawayLimits, TurnLimits } from '@agentstep/protocol';
import {
  type ApprovalRules,
  type ApprovalTokenStore,
  type Clock,
  ContextCache,
  type ContextOptions,
  createToolset,
  type EventLog,
  type Model,
  type ModelStepDeps,
  type OutcomeStore,
  type StepStream,
  type Tool,
  type TurnEvents,
  TurnTallies,
  type UsageLedger,
} from '@agentstep/runtime';
import type { StepHandler } from '@agentstep/runtime/lambda';
import type { AgentMcp } from '@agentstep/runtime/mcp';
import { Logger } from '@aws-lambda-powertools/logger';

/** What the local functions run on: the stores, the model, the tools and the agent's settings. */
export interface LocalDeps {
  log: EventLog;
  outcomes: OutcomeStore;
  usage: UsageLedger;
  approvalTokens: ApprovalTokenStore;
  model: Model;
  /** Named model profiles a turn may ask for (a workflow agent's `REQUIRES`), by name. @default none */
  models?: Readonly<Record<string, Model>>;
  clock: Clock;
  tools: readonly Tool[];
  /** The local name of the function that hosts the tools. */
  toolsFunction: string;
  maxConcurrency?: number;
  limits?: Partial<TurnLimits & RunawayLimits>;
  /** The default budget of a turn whose input sets none. */
  budget?: Budget;
  /** Prices by model id. @default DEFAULT_PRICES */
  prices?: PriceTable;
  instructions?: string;
  /** Where model steps publish their output as it streams. @default none */
  stream?: StepStream;
  /** Where turns closed outside the state machine are announced. */
  events: TurnEvents;
  /** Which calls wait for approval, besides tools defined with `approval: true`. @default none */
  approvals?: Omit<ApprovalRules, 'toolset'>;
  /** The agent's MCP servers, whose tools each turn lists once, logs and offers. @default none */
  mcp?: AgentMcp;
  /** How model steps keep the context within the model's window. @default each model's known window */
  context?: ContextOptions;
  /** The agent version this engine runs (`agentVersion`), recorded by each turn's `turn_start`. @default none recorded */
  version?: string;
  /** Keeps each tenant within its spend ceiling (decision 0043). @default none: no tenant is capped */
  ceilings?: ModelStepDeps['ceilings'];
}

/**
 * Each step's handler, built from the same `functions/<step>/handler.ts` module the Lambda runs,
 * with local dependencies instead of the environment's.
 */
export function localHandlers(deps: LocalDeps): Record<StepName, StepHandler<unknown>> {
  const logger = new Logger({ serviceName: 'agentstep', logLevel: 'SILENT' });
  const toolset = createToolset(deps.tools);
  const shared = { log: deps.log, outcomes: deps.outcomes, clock: deps.clock, logger };
  const modelDeps = {
    ...shared,
    usage: deps.usage,
    model: deps.model,
    ...(deps.models ? { models: deps.models } : {}),
    ...(deps.prices ? { prices: deps.prices } : {}),
    tools: toolset.descriptions,
    approvals: { ...deps.approvals, toolset },
    targetOf: () => deps.toolsFunction,
    sequentialTools: new Set(deps.tools.filter((tool) => tool.sequential).map((tool) => tool.name)),
    ...(deps.maxConcurrency ? { maxConcurrency: deps.maxConcurrency } : {}),
    ...(deps.instructions ? { instructions: deps.instructions } : {}),
    ...(deps.stream ? { stream: deps.stream } : {}),
    ...(deps.mcp ? { mcp: deps.mcp } : {}),
    ...(deps.context ? { context: deps.context } : {}),
    ...(deps.ceilings ? { ceilings: deps.ceilings } : {}),
    contextCache: new ContextCache(),
    turnTallies: new TurnTallies(),
  };
  return {
    'start-turn': startTurn({
      ...shared,
      ...(deps.version ? { version: deps.version } : {}),
      ...(deps.limits ? { limits: deps.limits } : {}),
      ...(deps.budget ? { budget: deps.budget } : {}),
    }),
    'model-step': modelStep(modelDeps),
    'invoke-tool': invokeTool({ ...shared, toolset, ...(deps.mcp ? { mcp: deps.mcp } : {}) }),
    'record-tool-failure': recordToolFailure(shared),
    'await-approval': awaitApproval({ ...shared, approvalTokens: deps.approvalTokens }),
    'expire-approval': expireApproval(shared),
    'advance-turn': advanceTurn(modelDeps),
    'finish-turn': finishTurn({ ...shared, usage: deps.usage }),
    'fail-turn': failTurn({ ...shared, usage: deps.usage }),
    'release-turn': releaseTurn({ ...shared, usage: deps.usage }),
    'describe-turn': describeTurn({ ...shared, usage: deps.usage }),
    'close-stopped-turn': closeStoppedTurn({ ...shared, usage: deps.usage, events: deps.events }),
    'advance-workflow': advanceWorkflow(shared),
    'await-gate': awaitGate({ ...shared, approvalTokens: deps.approvalTokens }),
  };
}
