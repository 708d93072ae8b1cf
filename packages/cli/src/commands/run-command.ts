import { type LocalExecutionStarter, LocalTaskTokens, type TurnRun } from '@agentstep/local';
import { UNNAMED_AGENT } from '@agentstep/protocol';
import {
  type BegunTurn,
  type CancelDeps,
  cancelTurn,
  InMemoryStepStream,
  randomIds,
  type SessionSource,
  sessionSpend,
  storedSession,
  systemClock,
  type TenantRefusal,
  tenantRefusal,
} from '@agentstep/runtime';
import { agentOptions } from '../agent-file/agent-options.js';
import type { LoadedAgentFile } from '../agent-file/load-agent-file.js';
import { withAgentFile } from '../agent-file/with-agent-file.js';
import { runApprover } from '../approvals/run-approver.js';
import type { TerminalApprover } from '../approvals/terminal-approver.js';
import type { CliIo } from '../io/cli-io.js';
import { beginRunTurn } from '../local/begin-run-turn.js';
import { JsonRunView } from '../local/json-run-view.js';
import { lateSubAgents } from '../local/late-sub-agents.js';
import { LiveRunView } from '../local/live-run-view.js';
import { loadModel } from '../local/load-model.js';
import { loadPrices } from '../local/load-prices.js';
import { localMcp } from '../local/local-mcp.js';
import { noWindowNotice } from '../local/no-window-notice.js';
import { loadDefinition, localEngine, modelsOf, startingTurns } from '../local/open-engine.js';
import type { OpenStore, StoreKind } from '../local/open-store.js';
import { type CredentialsFound, providersWithCredentials } from '../local/providers-with-credentials.js';
import { recorderFor } from '../local/recorder-for.js';
import { parseRunOptions, type RunOptions } from '../local/run-options.js';
import type { RunView } from '../local/run-view.js';
import { recordStats } from '../local/session-stats.js';
import { toolsFor } from '../local/tools-for.js';
import { type TurnTracing, traceTurnEnds } from '../local/trace-turn-ends.js';

/** 130 for a cancelled turn, as a shell reports a command stopped by Ctrl-C. */
const EXIT_CODES = { done: 0, limit: 3, failed: 1, cancelled: 130 } as const;

/**
 * `agentstep run`: one turn of the agent on the local engine — the state machine CDK synthesizes,
 * every task on the handler its Lambda runs, the log in DynamoDB Local. Exit 0 when the turn
 * finished, 3 when a limit stopped it (or, with `--tenant`, the tenant's ceiling refused it: one
 * line on stderr), 1 when it failed (or the tenant is suspended). The agent is the agent file's (`--agent`,
 * else `agent.ts`), or `agent` when given (`runAgent`).
 */
export async function runCommand(args: string[], io: CliIo, agent?: LoadedAgentFile): Promise<number> {
  const notice = (text: string) => io.stderr(`agentstep: ${text}\n`);
  const parsed = parseRunOptions(args);
  const options = agent
    ? withAgentFile(parsed, agent)
    : await agentOptions(parsed, io, parsed.json ? () => {} : notice);
  const subAgents = lateSubAgents();
  const tools = toolsFor(options, io, subAgents.config);
  const loaded = await loadModel(options, io);
  const recorder = options.record ? await recorderFor(loaded.model, options.record, io) : undefined;
  const { source } = loaded;
  const prices = await loadPrices(options, modelsOf(loaded), io);
  const noWindow = options.json ? undefined : noWindowNotice(options, loaded);
  if (noWindow !== undefined) notice(noWindow);
  if (!options.json && !options.model.includes(':')) {
    notice(
      `the model is scripted (${source}): no model provider is called. Script your own with --script FILE,`,
    );
    const real = loaded.providers.providers.map((provider) => `${provider.name}:<model>`).join(' | ');
    notice(`or use a real one: --model ${real} [--base-url URL].`);
    if (!options.modelChosen) notice(credentialsNote(providersWithCredentials(loaded.providers.providers)));
  }
  // Synthesis (on a cache miss) overlaps DynamoDB Local's start; the store is closed whatever happens.
  const agentLoaded = loadDefinition(options, io);
  const mcp = localMcp(options);
  const store = await io.openStore(options.store, notice);
  let approver: ReturnType<typeof runApprover>;
  let stopFollowing = () => {};
  let tracing: TurnTracing | undefined;
  try {
    const agent = await agentLoaded;
    const given = options.session ?? randomIds.session();
    const session = options.tenant === undefined ? given : storedSession(options.tenant, given);
    const refused = await refusedTenantTurn(options, store);
    if (refused !== undefined) {
      io.stderr(`agentstep run: ${refused.message}\n`);
      return refused.code === 'TenantCeilingReached' ? EXIT_CODES.limit : EXIT_CODES.failed;
    }
    const taskTokens = new LocalTaskTokens(store.completions);
    approver = runApprover(options, io, { ...store, session, clock: systemClock, tools, taskTokens });
    const view = await viewFor(options, io, { ...store, session }, approver);
    const stream = new InMemoryStepStream();
    if (options.mode === 'token')
      stream.subscribe(session, ({ step, text }) => view.onModelChunk(step, text));
    const engine = localEngine(options, {
      agent,
      stores: store,
      model: recorder?.model ?? loaded.model,
      models: loaded.models,
      ...(loaded.summaryModel ? { summaryModel: loaded.summaryModel } : {}),
      prices,
      tools,
      taskTokens,
      stream,
      onEvent: (event) => view.onEvent(event),
      ...(mcp ? { mcp } : {}),
    });
    const agentName = options.loadedAgent?.agent.name ?? UNNAMED_AGENT;
    tracing = traceTurnEnds(engine.eventBus, store, () => agentName, notice);
    const deps = { ...store, clock: systemClock, wake: { ...store, taskTokens } };
    const { starter, unfollow } = startingTurns(engine, deps, io, notice);
    stopFollowing = unfollow;
    subAgents.bind({ ...store, starter });
    const begun = await beginRunTurn(
      { session, prompt: options.prompt, limits: limitsOf(options), lease: options.lease },
      options.ifBusy,
      { ...deps, starter },
      notice,
    );
    if (begun === undefined) return 0;
    if (begun.previous !== undefined)
      notice(`took session ${session} over from turn ${begun.previous}, which is now closed in its log.`);
    const run = await finishedOrCancelled(begun, { ...deps, starter }, io);
    const cancelledNote = `turn ${begun.turn} was cancelled; session ${session} is free for the next message.`;
    if (run === 'cancelled') {
      notice(cancelledNote);
      return EXIT_CODES.cancelled;
    }
    await recorder?.save();
    await view.finish(run);
    await recordStats(io, session, run.stats, sessionSpend(await store.usage.list(session)));
    // A cancelled turn that ended itself (its calls waited for approval) says so as one stopped does.
    if (run.output.status === 'cancelled') notice(cancelledNote);
    else if (!options.json) notice(sessionNote(session, store.kind));
    return EXIT_CODES[run.output.status];
  } finally {
    approver?.close();
    stopFollowing();
    await tracing?.stop();
    await Promise.all([store.close(), mcp?.connections.close()]);
  }
}

/** Why `--tenant`'s turn may not start: the tenant is suspended, or it reached its ceiling. */
async function refusedTenantTurn(
  options: RunOptions,
  stores: Pick<OpenStore, 'tenantControls' | 'tenantSpend'>,
): Promise<TenantRefusal | undefined> {
  if (options.tenant === undefined) return undefined;
  const ceiling = options.tenantCeiling ? { tenantCeiling: options.tenantCeiling } : {};
  return tenantRefusal(options.tenant, { ...stores, ...ceiling, clock: systemClock });
}

/**
 * Waits for the turn to end. Ctrl-C (or SIGTERM) cancels it as the API's cancel does: the loop stops,
 * its open batch is answered and the session is freed; a second Ctrl-C quits at once.
 */
async function finishedOrCancelled(
  begun: BegunTurn,
  deps: CancelDeps & { starter: LocalExecutionStarter },
  io: CliIo,
): Promise<TurnRun | 'cancelled'> {
  let cancelling: Promise<unknown> | undefined;
  const cancel = () => {
    cancelling ??= cancelTurn(begun.session, deps).catch(() => {});
  };
  const stopListening = io.onStopRequest(cancel);
  try {
    const run = await deps.starter.finished(begun.execution);
    // A turn that ended itself after the request (its calls waited for approval): the cancel is
    // still settling what waited, and the store stays open until it has.
    await cancelling;
    return run;
  } catch (error) {
    if (cancelling === undefined) throw error;
    await cancelling;
    return 'cancelled';
  } finally {
    stopListening();
  }
}

function credentialsNote({ found, sought }: CredentialsFound): string {
  if (found.length === 0) return `no provider credentials found (${sought.join(', ')}).`;
  return `credentials found for: ${found.join(', ')}.`;
}

function sessionNote(session: string, kind: StoreKind): string {
  if (kind === 'memory') return `session ${session} was kept in memory: its events ended with this run.`;
  return `session ${session}: see \`agentstep events ${session}\`, \`context ${session}\`, \`stats ${session}\`.`;
}

/** The view the options ask for, showing what the session gains from now on. */
async function viewFor(
  options: RunOptions,
  io: CliIo,
  stores: Pick<SessionSource, 'log' | 'usage' | 'session'>,
  approvals?: TerminalApprover,
): Promise<RunView> {
  const source = {
    ...stores,
    afterSeq: (await stores.log.read(stores.session)).at(-1)?.seq ?? 0,
    afterMetrics: (await stores.usage.list(stores.session)).length,
  };
  return options.json
    ? new JsonRunView(io, source, options.mode)
    : new LiveRunView(approvals?.above(io) ?? io, source, options.mode, approvals);
}

/** The turn's limits, budget and tool execution, as far as the options set them. */
function limitsOf(options: RunOptions) {
  return {
    budget: options.budget,
    ...(options.sequential ? { toolExecution: 'sequential' as const } : {}),
    ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
    ...(options.stepsPerExecution ? { stepsPerExecution: options.stepsPerExecution } : {}),
  };
}
