import {
  type EngineEvent,
  LocalEngine,
  type LocalEventBus,
  LocalExecutionStarter,
  LocalTaskTokens,
  loadAgent,
  type SynthesizedAgent,
} from '@agentstep/local';
import type { PriceTable, RunawayLimits } from '@agentstep/protocol';
import {
  type Clock,
  contextOptions,
  type EventLog,
  type Model,
  RecentTenantControls,
  type StepStream,
  systemClock,
  type Tool,
} from '@agentstep/runtime';
import type { AgentMcp } from '@agentstep/runtime/mcp';
import type { CliIo } from '../io/cli-io.js';
import { agentCacheFile } from './agent-cache-file.js';
import { agentVersionOf } from './agent-version-of.js';
import { followStore } from './follow-store.js';
import { lateSubAgents } from './late-sub-agents.js';
import { type LoadedModels, loadModel } from './load-model.js';
import { loadPrices } from './load-prices.js';
import { localMcp } from './local-mcp.js';
import { noWindowNotice } from './no-window-notice.js';
import { executionOwners, type OpenStore } from './open-store.js';
import { reclaimingEventLog } from './reclaiming-event-log.js';
import { approvalsOf, definitionPropsOf, type RunOptions } from './run-options.js';
import { toolsFor } from './tools-for.js';

/** The agent on the local engine over the folder's store, and what it runs with. */
export interface OpenEngine {
  engine: LocalEngine;
  /** The stores the engine runs on (`log` as `watchLog` wrapped it). */
  stores: OpenStore & { log: EventLog };
  taskTokens: LocalTaskTokens;
  tools: Tool[];
  /** Starts turns on the engine: those of clients, and sub-agents' (the `agents` toolset). */
  starter: LocalExecutionStarter;
  /**
   * Runs the agent `options` describe (its file loaded again) for every turn that starts from now
   * on, on the same stores and event bus; the turns running finish on the engine they started on
   * (decision 0040). Resolves with the new engine's agent version.
   */
  reload(options: RunOptions): Promise<string>;
  /** The agent version the engine runs (until a reload). */
  version: string;
}

/**
 * Starts loading the loop the options shape (synthesized once per such props, then cached), so
 * synthesis overlaps DynamoDB Local's start; a failure is seen by whoever awaits it.
 */
export function loadDefinition(options: RunOptions, io: CliIo): Promise<SynthesizedAgent> {
  const definitionProps = definitionPropsOf(options);
  const agentLoaded = loadAgent(agentCacheFile(io, definitionProps), definitionProps);
  agentLoaded.catch(() => {});
  return agentLoaded;
}

/** What the engine runs the agent with besides its options: the loop, stores, model and tools. */
export interface EngineParts {
  agent: SynthesizedAgent;
  stores: Pick<OpenStore, 'log' | 'outcomes' | 'usage' | 'approvalTokens' | 'tenantSpend' | 'tenantControls'>;
  model: Model;
  /** The named model profiles' models. @default none */
  models?: Readonly<Record<string, Model>>;
  /** The model that writes compactions' summaries (`context.summaryModel`). @default - the turn's own */
  summaryModel?: Model;
  prices: PriceTable;
  tools: Tool[];
  taskTokens: LocalTaskTokens;
  /** Where model steps publish their output as it streams. @default none */
  stream?: StepStream;
  /** Sees every event of every execution, for live views. @default none */
  onEvent?: (event: EngineEvent) => void;
  /** The agent's MCP servers and the connections to them. @default none */
  mcp?: AgentMcp;
  /** Where turns' ends are announced: an engine of the agent's next version shares its predecessor's. @default its own */
  eventBus?: LocalEventBus;
}

/**
 * The local engine for the agent the options describe (approvals, limits, budget, context, chaos,
 * and the agent file's instructions and concurrency). Sub-agents and workflows' goals run on it too.
 */
export function localEngine(options: RunOptions, parts: EngineParts): LocalEngine {
  const { agent, stores, model, models, summaryModel, prices, tools, taskTokens, stream, onEvent, mcp } =
    parts;
  const { eventBus } = parts;
  const { instructions, maxConcurrency } = options.loadedAgent?.agent ?? {};
  const { version } = agentVersionOf(options, tools, agent);
  return new LocalEngine({
    agent,
    deps: {
      ...stores,
      model,
      ...(models ? { models } : {}),
      prices,
      clock: systemClock,
      tools,
      approvals: approvalsOf(options),
      limits: {
        ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
        ...(options.stepsPerExecution ? { stepsPerExecution: options.stepsPerExecution } : {}),
        ...runawayLimitsOf(options),
      },
      budget: options.budget,
      context: contextOptions(options.context, summaryModel),
      ...(instructions ? { instructions } : {}),
      ...(maxConcurrency ? { maxConcurrency } : {}),
      ...(stream ? { stream } : {}),
      ...(mcp ? { mcp } : {}),
      version,
      ceilings: {
        tenantSpend: stores.tenantSpend,
        tenantControls: new RecentTenantControls(stores.tenantControls, systemClock),
        ...(options.tenantCeiling ? { tenantCeiling: options.tenantCeiling } : {}),
      },
    },
    taskTokens,
    ...(options.chaos ? { chaos: options.chaos } : {}),
    ...(onEvent ? { onEvent } : {}),
    ...(eventBus ? { eventBus } : {}),
  });
}

/**
 * Opens the agent the options describe on the synthesized definition and the folder's store, and
 * closes the store after `use`, whatever happens. On a store other processes share, the turns
 * this process runs are recorded as its own; should the store stop meanwhile, see `followStore`.
 * Model steps publish their output to `stream` as the model writes it, when one is given. A model
 * whose context is never compacted (no window known) is named once, through `notice`.
 */
export async function withEngine<T>(
  options: RunOptions,
  io: CliIo,
  notice: (text: string) => void,
  use: (opened: OpenEngine) => Promise<T>,
  watchLog: (log: EventLog) => EventLog = (log) => log,
  stream?: StepStream,
): Promise<T> {
  const subAgents = lateSubAgents();
  const { agent: agentLoaded, ...firstParts } = await agentParts(options, io, notice, subAgents.config);
  const store = await io.openStore(options.store, notice);
  const opened: AgentMcp[] = firstParts.mcp ? [firstParts.mcp] : [];
  try {
    const first = { ...firstParts, agent: await agentLoaded };
    // Bound once the starter exists: it closes the turns dead processes left holding sessions.
    let closeOrphans = async (): Promise<unknown[]> => [];
    const stores = { ...store, log: reclaimingEventLog(watchLog(store.log), () => closeOrphans()) };
    const taskTokens = new LocalTaskTokens(store.completions);
    const shared = { stores, taskTokens, ...(stream ? { stream } : {}) };
    const engine = localEngine(options, { ...first, ...shared });
    const { starter, unfollow } = startingTurns(engine, { ...stores, clock: systemClock }, io, notice);
    closeOrphans = () => starter.closeOrphans();
    subAgents.bind({ ...stores, starter });
    const reload = async (next: RunOptions) => {
      const { agent: nextLoaded, ...nextParts } = await agentParts(next, io, notice, subAgents.config);
      if (nextParts.mcp) opened.push(nextParts.mcp);
      const parts = { ...nextParts, agent: await nextLoaded };
      starter.use(localEngine(next, { ...parts, ...shared, eventBus: engine.eventBus }));
      return agentVersionOf(next, parts.tools, parts.agent).version;
    };
    const { version } = agentVersionOf(options, first.tools, first.agent);
    try {
      return await use({ engine, stores, taskTokens, tools: first.tools, starter, reload, version });
    } finally {
      unfollow();
    }
  } finally {
    await Promise.all([store.close(), ...opened.map((mcp) => mcp.connections.close())]);
  }
}

/**
 * What an engine runs the agent of `options` with besides the stores: its models, prices, tools and
 * MCP servers, and its loop (synthesized on a cache miss, so it overlaps what the caller does next).
 */
async function agentParts(
  options: RunOptions,
  io: CliIo,
  notice: (text: string) => void,
  subAgents: Parameters<typeof toolsFor>[2],
) {
  const loaded = await loadModel(options, io);
  const { model, models, summaryModel } = loaded;
  const prices = await loadPrices(options, modelsOf(loaded), io);
  const noWindow = noWindowNotice(options, loaded);
  if (noWindow !== undefined) notice(noWindow);
  const tools = toolsFor(options, io, subAgents);
  const agent = loadDefinition(options, io);
  const mcp = localMcp(options);
  return {
    agent,
    model,
    models,
    ...(summaryModel ? { summaryModel } : {}),
    prices,
    tools,
    ...(mcp ? { mcp } : {}),
  };
}

/**
 * The starter of the turns this process runs on the engine's store. On a store other processes
 * share, each turn is recorded as this process's own (the turns dead processes left open were
 * closed as the store opened: `openStore`), and should the store die, `followStore` handles the
 * turns it runs; `unfollow` ends that.
 */
export function startingTurns(
  engine: LocalEngine,
  deps: OpenStore & { clock: Clock },
  io: CliIo,
  notice: (text: string) => void,
): { starter: LocalExecutionStarter; unfollow: () => void } {
  const owners = deps.kind === 'memory' ? {} : { owners: executionOwners(io.dataDir) };
  const starter = new LocalExecutionStarter(engine, deps, owners);
  return { starter, unfollow: followStore(deps, starter, notice) };
}

/** Every model a run may call, for its prices: the default one, the profiles' and the summary model. */
export function modelsOf({ model, models, summaryModel }: LoadedModels): Model[] {
  return [model, ...Object.values(models), ...(summaryModel ? [summaryModel] : [])];
}

/** The agent file's runaway guards (decision 0030): no flag sets them. */
function runawayLimitsOf(options: RunOptions): Partial<RunawayLimits> {
  const { repeatedCalls, stepsWithoutProgress } = options.loadedAgent?.agent.limits ?? {};
  return {
    ...(repeatedCalls ? { repeatedCalls } : {}),
    ...(stepsWithoutProgress ? { stepsWithoutProgress } : {}),
  };
}
