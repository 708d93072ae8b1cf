import { closestName } from './closest-name.js';
import { type CliIo, processIo } from './io/cli-io.js';
import { debugTrace } from './io/debug-trace.js';
import { UsageError } from './usage-error.js';

export { processIo } from './io/cli-io.js';

type Command = (args: string[], io: CliIo) => Promise<number>;

/** Each command is imported only when it runs, so `parse` does not pay for the runtime's start-up. */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  run: async () => (await import('./commands/run-command.js')).runCommand,
  serve: async () => (await import('./commands/serve-command.js')).serveCommand,
  invoke: async () => (await import('./commands/invoke-command.js')).invokeCommand,
  events: async () => (await import('./commands/events-command.js')).eventsCommand,
  fork: async () => (await import('./commands/fork-command.js')).forkCommand,
  context: async () => (await import('./commands/context-command.js')).contextCommand,
  stats: async () => (await import('./commands/stats-command.js')).statsCommand,
  approvals: async () => (await import('./commands/approvals-command.js')).approvalsCommand,
  approve: async () => (await import('./commands/approve-command.js')).approveCommand,
  parse: async () => (await import('./commands/parse-command.js')).parseCommand,
  prompt: async () => (await import('./commands/prompt-command.js')).promptCommand,
  'render-context': async () => (await import('./commands/render-context-command.js')).renderContextCommand,
  workflow: async () => (await import('./commands/workflow-command.js')).workflowCommand,
  version: async () => (await import('./commands/version-command.js')).versionCommand,
  tenants: async () => (await import('./commands/tenants-command.js')).tenantsCommand,
  smoke: async () => (await import('./commands/smoke-command.js')).smokeCommand,
  traces: async () => (await import('./commands/traces-command.js')).tracesCommand,
  eval: async () => (await import('./commands/eval-command.js')).evalCommand,
  mcp: async () => (await import('./commands/mcp-command.js')).mcpCommand,
};

/**
 * Runs `agentstep` with its arguments and returns the exit code: the command's own (0 on
 * success), 2 for a usage mistake (with a one-line reason and a pointer to `--help`), 1 for any
 * other failure, reported in one line. `AGENTSTEP_DEBUG=1` adds the stacks of either, causes included.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...args] = argv;
  const asksForHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';
  // `agentstep serve --help` as well as `agentstep --help`: the usage of every command.
  if (name === undefined || name === 'help' || asksForHelp(name) || args.some(asksForHelp)) {
    // Imported only here: help lists the model providers, and loading them loads their SDKs.
    io.stdout(`${(await import('./usage.js')).USAGE}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  try {
    if (command === undefined) throw new UsageError(unknownCommand(name));
    return await (await command())(args, io);
  } catch (error) {
    const prefix = command === undefined ? 'agentstep' : `agentstep ${name}`;
    // One line saying what failed; the stacks (the error's and its causes') only when asked for.
    if (isUsageMistake(error)) {
      io.stderr(`${prefix}: ${error.message}\nRun "agentstep --help" for usage.\n${debugTrace(error)}`);
      return 2;
    }
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    io.stderr(`${prefix}: ${detail}\n${debugTrace(error)}`);
    return 1;
  }
}

/** `Unknown command "rnu": did you mean run?`, when a command is that close. */
function unknownCommand(name: string): string {
  const meant = closestName(name, Object.keys(COMMANDS));
  return `Unknown command "${name}"${meant === undefined ? '.' : `: did you mean ${meant}?`}`;
}

/** Our own usage errors, and node:util parseArgs's rejections of unknown or malformed options. */
function isUsageMistake(error: unknown): error is Error {
  if (error instanceof UsageError) return true;
  return error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS_');
}
