import { bearerNameTenant, createApi, LogChanges, singleTenant } from '@agentstep/api';
import { LocalEngine, LocalExecutionStarter, LocalTaskTokens, loadAgent } from '@agentstep/local';
import { type CancelDeps, cancelTurn, createToolset, systemClock } from '@agentstep/runtime';
import { serve } from '@hono/node-server';
import type { CliIo } from '../io/cli-io.js';
import { agentCacheFile } from '../local/agent-cache-file.js';
import { loadModel } from '../local/load-model.js';
import { loadPrices } from '../local/load-prices.js';
import { openStore } from '../local/open-store.js';
import { approvalsOf, definitionPropsOf } from '../local/run-options.js';
import { parseServeOptions } from '../local/serve-options.js';
import { toolsFor } from '../local/tools-for.js';

/**
 * `agentstep serve`: the HTTP API on this machine, over the local engine and DynamoDB Local. Its
 * first line on stdout is `listening on http://HOST:PORT` once it accepts requests; SIGINT or
 * SIGTERM stops it: turns still running are cancelled, then DynamoDB Local stops.
 */
export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseServeOptions(args);
  const { model } = await loadModel(options.agent, io);
  const prices = await loadPrices(options.agent, model, io);
  const tools = toolsFor(options.agent, io);
  const notice = (text: string) => io.stderr(`agentstep serve: ${text}\n`);
  const definitionProps = definitionPropsOf(options.agent);
  const agentLoaded = loadAgent(agentCacheFile(io, definitionProps), definitionProps);
  agentLoaded.catch(() => {});
  const store = await openStore(options.agent.store, io.dataDir, notice);
  try {
    const changes = new LogChanges();
    const stores = { ...store, log: changes.watch(store.log) };
    const taskTokens = new LocalTaskTokens(store.completions);
    const engine = new LocalEngine({
      agent: await agentLoaded,
      deps: { ...stores, model, prices, clock: systemClock, tools, approvals: approvalsOf(options.agent) },
      taskTokens,
      ...(options.agent.chaos ? { chaos: options.agent.chaos } : {}),
    });
    const starter = new LocalExecutionStarter(engine, { ...stores, clock: systemClock });
    const tenantOf = options.auth === 'dev' ? bearerNameTenant : singleTenant();
    const toolset = createToolset(tools);
    const deps = { ...stores, clock: systemClock, taskTokens, toolset };
    const app = createApi({ ...deps, starter, tenantOf, changes });
    await listenUntilStopped(app.fetch, options.host, options.port, io);
    await cancelRunningTurns(starter, { ...deps, wake: deps });
    return 0;
  } finally {
    await store.close();
  }
}

/** Cancels every turn still running, as the API's cancel does, and waits until each has ended. */
async function cancelRunningTurns(starter: LocalExecutionStarter, deps: Omit<CancelDeps, 'starter'>) {
  const running = starter.running();
  await Promise.all(
    running.map(({ session }) => cancelTurn(session, { ...deps, starter, graceMs: 0 }).catch(() => {})),
  );
  await Promise.all(running.map(({ execution }) => starter.finished(execution).catch(() => {})));
}

/** Serves until SIGINT or SIGTERM, announcing the address once requests are accepted. */
async function listenUntilStopped(
  fetch: (request: Request) => Response | Promise<Response>,
  hostname: string,
  port: number,
  io: CliIo,
): Promise<void> {
  const stopped = new Promise<void>((settle) => {
    process.once('SIGINT', settle);
    process.once('SIGTERM', settle);
  });
  const server = await new Promise<ReturnType<typeof serve>>((settle, fail) => {
    const listening = serve({ fetch, hostname, port }, (info) => {
      io.stdout(`listening on http://${hostname}:${info.port}\n`);
      settle(listening);
    });
    listening.once('error', fail);
  });
  await stopped;
  await new Promise((settle) => server.close(settle));
}
