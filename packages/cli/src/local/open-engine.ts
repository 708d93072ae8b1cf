import { LocalEngine, LocalTaskTokens, loadAgent } from '@agentstep/local';
import { type EventLog, systemClock, type Tool } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';
import { agentCacheFile } from './agent-cache-file.js';
import { loadModel } from './load-model.js';
import { loadPrices } from './load-prices.js';
import { type OpenStore, openStore } from './open-store.js';
import { approvalsOf, definitionPropsOf, type RunOptions } from './run-options.js';
import { toolsFor } from './tools-for.js';

/** The agent on the local engine over the folder's store, and what it runs with. */
export interface OpenEngine {
  engine: LocalEngine;
  /** The stores the engine runs on (`log` as `watchLog` wrapped it). */
  stores: OpenStore & { log: EventLog };
  taskTokens: LocalTaskTokens;
  tools: Tool[];
}

/**
 * Opens the agent the options describe (model, prices, tools, approvals, limits, chaos) on the
 * synthesized definition and the folder's store, and closes the store after `use`, whatever happens.
 * Synthesis (on a cache miss) overlaps DynamoDB Local's start.
 */
export async function withEngine<T>(
  options: RunOptions,
  io: CliIo,
  notice: (text: string) => void,
  use: (opened: OpenEngine) => Promise<T>,
  watchLog: (log: EventLog) => EventLog = (log) => log,
): Promise<T> {
  const { model } = await loadModel(options, io);
  const prices = await loadPrices(options, model, io);
  const tools = toolsFor(options, io);
  const definitionProps = definitionPropsOf(options);
  const agentLoaded = loadAgent(agentCacheFile(io, definitionProps), definitionProps);
  agentLoaded.catch(() => {});
  const store = await openStore(options.store, io.dataDir, notice);
  try {
    const stores = { ...store, log: watchLog(store.log) };
    const taskTokens = new LocalTaskTokens(store.completions);
    const engine = new LocalEngine({
      agent: await agentLoaded,
      deps: {
        ...stores,
        model,
        prices,
        clock: systemClock,
        tools,
        approvals: approvalsOf(options),
        limits: {
          ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
          ...(options.stepsPerExecution ? { stepsPerExecution: options.stepsPerExecution } : {}),
        },
        budget: options.budget,
      },
      taskTokens,
      ...(options.chaos ? { chaos: options.chaos } : {}),
    });
    return await use({ engine, stores, taskTokens, tools });
  } finally {
    await store.close();
  }
}
