import { randomUUID } from 'node:crypto';
import { WORKFLOW_STATE_MACHINE } from '@agentstep/local';
import type { WorkflowState } from '@agentstep/protocol';
import { runLogOf, startWorkflow } from '@agentstep/runtime';
import { agentOptions } from '../agent-file/agent-options.js';
import type { CliIo } from '../io/cli-io.js';
import { debugTrace } from '../io/debug-trace.js';
import { withEngine } from '../local/open-engine.js';
import { UsageError } from '../usage-error.js';
import { checkModelProfiles } from '../workflows/check-model-profiles.js';
import { loadWorkflow } from '../workflows/load-workflow.js';
import { parseWorkflowRunOptions, runOptionsOf } from '../workflows/workflow-options.js';
import { watchWorkflow } from '../workflows/workflow-run-view.js';

type Subcommand = (args: string[], io: CliIo) => Promise<number>;

const SUBCOMMANDS: Readonly<Record<string, () => Promise<Subcommand>>> = {
  run: async () => workflowRun,
  resume: async () => workflowResume,
  context: async () => (await import('./workflow-context-command.js')).workflowContextCommand,
  gate: async () => (await import('./workflow-gate-command.js')).workflowGateCommand,
};

/** `agentstep workflow run|resume|context|gate …`: multi-goal workflows on the local engine. */
export async function workflowCommand(args: string[], io: CliIo): Promise<number> {
  const [name = '', ...rest] = args;
  const subcommand = SUBCOMMANDS[name];
  if (subcommand === undefined)
    throw new UsageError(`workflow needs run, resume, context or gate, received "${name}".`);
  return (await subcommand())(rest, io);
}

/**
 * `workflow run FILE [--input NAME=VALUE …] [run options]`: starts a run of the workflow and runs
 * it to its end on the local engine, one line per record as it happens. Exit 0 when it is done,
 * 1 when it failed or was aborted, 2 for a usage mistake (a profile an agent REQUIRES included).
 */
async function workflowRun(args: string[], io: CliIo): Promise<number> {
  const options = parseWorkflowRunOptions(args);
  const spec = await loadWorkflow(options.file, io);
  const agent = await agentOptions(options.agent, io, workflowNotice(io));
  checkModelProfiles(spec, agent.modelProfiles);
  const run = `wf-${randomUUID().slice(0, 13).replace('-', '')}`;
  return runToEnd(run, agent, io, (stores) => startWorkflow({ run, spec, inputs: options.inputs }, stores));
}

/**
 * `workflow resume RUN [run options]`: runs a run that stopped (its process killed, its execution
 * failed) on from its log: finished goals are not run again. Its agents' profiles must be configured
 * again, as for `workflow run`.
 */
async function workflowResume(args: string[], io: CliIo): Promise<number> {
  const [run, ...rest] = args;
  if (run === undefined || run.startsWith('--'))
    throw new UsageError('workflow resume needs the run: workflow resume RUN.');
  const agent = await agentOptions(runOptionsOf(rest), io, workflowNotice(io));
  return runToEnd(run, agent, io, async (stores) => {
    const log = runLogOf(run, await stores.log.read(run));
    if (log !== undefined) checkModelProfiles(log.spec, agent.modelProfiles);
  });
}

/** Says what the user should know on stderr, as `agentstep workflow`. */
function workflowNotice(io: CliIo): (text: string) => void {
  return (text) => io.stderr(`agentstep workflow: ${text}\n`);
}

async function runToEnd(
  run: string,
  agent: ReturnType<typeof runOptionsOf>,
  io: CliIo,
  begin: (stores: Parameters<typeof startWorkflow>[1]) => Promise<unknown>,
): Promise<number> {
  const view = watchWorkflow(run, io.stderr);
  return withEngine(
    agent,
    io,
    workflowNotice(io),
    async ({ engine, stores }) => {
      await begin({ log: stores.log, clock: { now: () => io.now() } });
      try {
        const { output } = await engine.execute(WORKFLOW_STATE_MACHINE, { run });
        const state = output as WorkflowState;
        io.stdout(`${JSON.stringify({ run, status: state.next, message: state.message })}\n`);
        return state.next === 'done' ? 0 : 1;
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause ?? error;
        const { name, message } = cause instanceof Error ? cause : { name: 'Error', message: String(cause) };
        io.stdout(`${JSON.stringify({ run, status: 'failed', error: name, message })}\n`);
        const trace = debugTrace(error);
        if (trace !== '') io.stderr(trace);
        return 1;
      }
    },
    view,
  );
}
