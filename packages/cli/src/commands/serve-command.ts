import { bearerNameTenant, createApi, LogChanges, singleTenant } from '@agentstep/api';
import { type LocalExecutionStarter, LocalWorkflowStarter } from '@agentstep/local';
import { type CancelDeps, cancelTurn, createToolset, systemClock } from '@agentstep/runtime';
import { serve } from '@hono/node-server';
import type { CliIo } from '../io/cli-io.js';
import { withEngine } from '../local/open-engine.js';
import { parseServeOptions } from '../local/serve-options.js';

/**
 * `agentstep serve`: the HTTP API on this machine, over the local engine and DynamoDB Local. Its
 * first line on stdout is `listening on http://HOST:PORT` once it accepts requests; SIGINT or
 * SIGTERM stops it: turns still running are cancelled, then DynamoDB Local stops.
 */
export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseServeOptions(args);
  const notice = (text: string) => io.stderr(`agentstep serve: ${text}\n`);
  const changes = new LogChanges();
  return withEngine(
    options.agent,
    io,
    notice,
    async ({ engine, stores, taskTokens, tools, starter }) => {
      const tenantOf = options.auth === 'dev' ? bearerNameTenant : singleTenant();
      const deps = { ...stores, clock: systemClock, taskTokens, toolset: createToolset(tools) };
      const workflows = new LocalWorkflowStarter(engine);
      const app = createApi({ ...deps, starter, workflows, tenantOf, changes });
      await listenUntilStopped(app.fetch, options.host, options.port, io);
      await cancelRunningTurns(starter, { ...deps, wake: deps });
      return 0;
    },
    (log) => changes.watch(log),
  );
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
