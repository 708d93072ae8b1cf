import { fileURLToPath } from 'node:url';
import {
  type A2aAgentInfo,
  bearerNameTenant,
  createApi,
  InMemoryLiveSteps,
  jwtTenant,
  LogChanges,
  singleTenant,
  type TenantOf,
} from '@agentstep/api';
import { issuerKeys } from '@agentstep/api/jwt';
import { type LocalExecutionStarter, LocalWorkflowStarter, startQueuedTurns } from '@agentstep/local';
import { UNNAMED_AGENT } from '@agentstep/protocol';
import { type CancelDeps, cancelTurn, createToolset, systemClock } from '@agentstep/runtime';
import { serve } from '@hono/node-server';
import { agentOptions } from '../agent-file/agent-options.js';
import type { CliIo } from '../io/cli-io.js';
import { cancelSuspendedTurns } from '../local/cancel-suspended-turns.js';
import { consoleConfigOf } from '../local/console-config-of.js';
import { type NodeFetchHandler, withEdgeChecks } from '../local/edge-checks.js';
import { withEngine } from '../local/open-engine.js';
import { reloadOnChange } from '../local/reload-on-change.js';
import type { RunOptions } from '../local/run-options.js';
import { serveConsole } from '../local/serve-console.js';
import { parseServeOptions, type ServeAuth } from '../local/serve-options.js';
import { traceTurnEnds } from '../local/trace-turn-ends.js';

/** Where the CLI bundle carries the web console (bin/bundle.js builds it there); absent when run from sources. */
const CONSOLE_DIR = fileURLToPath(new URL('console/', import.meta.url));

/**
 * `agentstep serve`: the HTTP API on this machine, over the local engine and DynamoDB Local. Its
 * first line on stdout is `listening on http://HOST:PORT` once it accepts requests, and the web
 * console's address goes to stderr when the bundle carries it; SIGINT or
 * SIGTERM stops it: turns still running are cancelled, workflow runs it was running stop (resumable
 * with `agentstep workflow resume`), then DynamoDB Local stops.
 */
export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseServeOptions(args);
  const notice = (text: string) => io.stderr(`agentstep serve: ${text}\n`);
  const changes = new LogChanges();
  // Model steps' text as it streams, for every open stream of their session.
  const live = new InMemoryLiveSteps();
  // The agent file's name, as traces name the agent: a reload may rename it.
  let agentName = UNNAMED_AGENT;
  const agentOf = async () => {
    const agent = await agentOptions(options.agent, io, notice);
    agentName = agent.loadedAgent?.agent.name ?? UNNAMED_AGENT;
    return options.tenantCeiling ? { ...agent, tenantCeiling: options.tenantCeiling } : agent;
  };
  const agent = await agentOf();
  return withEngine(
    agent,
    io,
    notice,
    async ({ engine, stores, taskTokens, tools, starter, reload, version }) => {
      let agentVersion = version;
      const reloadTracked = async (next: RunOptions) => {
        agentVersion = await reload(next);
        return agentVersion;
      };
      const stopReloading = reloadOnChange(agent, io, agentOf, reloadTracked, notice);
      const tenantOf = tenantsOf(options.auth);
      const deps = { ...stores, clock: systemClock, taskTokens, toolset: createToolset(tools) };
      const workflows = new LocalWorkflowStarter(engine);
      const app = createApi({
        ...deps,
        starter,
        workflows,
        tenantOf,
        changes,
        live,
        corsOrigins: options.corsOrigins,
        ...(options.tenantCeiling ? { tenantCeiling: options.tenantCeiling } : {}),
        agentInfo: () => ({ name: agentName, version: agentVersion, ...cardAuthOf(options.auth) }),
      });
      const stopStartingQueued = startQueuedTurns(engine.eventBus, { ...deps, starter }, (error) =>
        notice(`a queued message could not start: ${error instanceof Error ? error.message : String(error)}`),
      );
      const tracing = traceTurnEnds(engine.eventBus, stores, () => agentName, notice);
      const stopCancellingSuspended = cancelSuspendedTurns(starter, { ...deps, wake: deps }, (error) =>
        notice(
          `a suspended tenant's turn could not be cancelled: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      const withConsole = serveConsole(app.fetch, CONSOLE_DIR, consoleConfigOf(options.auth));
      const hosts = { listen: options.host, allowed: options.allowedHosts };
      await listenUntilStopped(withEdgeChecks(withConsole ?? app.fetch, hosts), options, io, (url) => {
        io.stdout(`listening on ${url}\n`);
        if (withConsole) io.stderr(`console on ${url}/\n`);
      });
      // Queued messages wait for the next start: the turns cancelled now must not start them.
      stopStartingQueued();
      stopCancellingSuspended();
      stopReloading();
      await cancelRunningTurns(starter, { ...deps, wake: deps });
      await tracing.stop();
      // Workflow runs waiting here (at a human gate) stop with the server: `workflow resume` goes on.
      engine.stopExecutions();
      return 0;
    },
    (log) => live.watch(changes.watch(log)),
    live,
  );
}

/** How the agent card says callers authenticate, as `--auth` checks them. */
function cardAuthOf(auth: ServeAuth): Pick<A2aAgentInfo, 'auth' | 'issuer'> {
  if (auth.mode === 'jwt') return { auth: 'oidc', issuer: auth.issuer };
  return { auth: auth.mode === 'dev' ? 'bearer' : 'none' };
}

/** Who each request acts for, as `--auth` says. */
function tenantsOf(auth: ServeAuth): TenantOf {
  if (auth.mode === 'dev') return bearerNameTenant;
  if (auth.mode === 'jwt') return jwtTenant({ ...auth, keys: issuerKeys(auth.issuer) });
  return singleTenant();
}

/** Cancels every turn still running, as the API's cancel does, and waits until each has ended. */
async function cancelRunningTurns(starter: LocalExecutionStarter, deps: Omit<CancelDeps, 'starter'>) {
  const running = starter.running();
  await Promise.all(
    running.map(({ session }) => cancelTurn(session, { ...deps, starter, graceMs: 0 }).catch(() => {})),
  );
  await Promise.all(running.map(({ execution }) => starter.finished(execution).catch(() => {})));
}

/** Serves until the user asks it to stop, announcing the address once requests are accepted. */
async function listenUntilStopped(
  fetch: NodeFetchHandler,
  { host: hostname, port }: { host: string; port: number },
  io: CliIo,
  announce: (url: string) => void,
): Promise<void> {
  let stopListening = () => {};
  const stopped = new Promise<void>((settle) => {
    stopListening = io.onStopRequest(settle);
  });
  const server = await new Promise<ReturnType<typeof serve>>((settle, fail) => {
    // Node's own Request and Response stay the globals: SDKs in this process (the MCP client's
    // OAuth among them) check `instanceof Response` against what their fetch returns.
    const listening = serve({ fetch, hostname, port, overrideGlobalObjects: false }, (info) => {
      announce(`http://${hostname}:${info.port}`);
      settle(listening);
    });
    listening.once('error', fail);
  }).catch((error: unknown) => {
    stopListening();
    throw error;
  });
  await stopped;
  await new Promise((settle) => server.close(settle));
}
