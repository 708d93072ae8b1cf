import { parseRunOptions, type RunOptions } from '../local/run-options.js';
import { UsageError } from '../usage-error.js';

/** `agentstep workflow run`'s options: the workflow file, its inputs, and the agent its goals run on. */
export interface WorkflowRunOptions {
  file: string;
  inputs: Record<string, string>;
  agent: RunOptions;
}

/** Options of the agent only a single turn has, which a workflow's goals cannot take. */
const TURN_ONLY = new Set(['--session', '--take-over', '--lease', '--record', '--json', '--mode']);

/** Parses `workflow run FILE [--input NAME=VALUE …] [run options]`; every mistake is a UsageError. */
export function parseWorkflowRunOptions(args: string[]): WorkflowRunOptions {
  const inputs: Record<string, string> = {};
  const rest: string[] = [];
  let file: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    const [flag = '', inline] = arg.split(/=(.*)/s, 2);
    if (flag === '--input') {
      const pair = inline ?? args[++index];
      const [name = '', value] = (pair ?? '').split(/=(.*)/s, 2);
      if (name === '' || value === undefined)
        throw new UsageError(
          `--input takes NAME=VALUE, e.g. --input topic=otters; received "${pair ?? ''}".`,
        );
      inputs[name] = value;
    } else if (TURN_ONLY.has(flag)) {
      throw new UsageError(`${flag} applies to \`agentstep run\`, not to workflow run.`);
    } else if (!arg.startsWith('--') && file === undefined) {
      file = arg;
    } else {
      rest.push(arg);
    }
  }
  if (file === undefined) throw new UsageError('workflow run needs the workflow file: workflow run FILE.');
  return { file, inputs, agent: runOptionsOf(rest, ['--input']) };
}

/**
 * The agent's options, with no prompt: a workflow's goals bring their own messages. `known` are the
 * subcommand's own flags, read before (`--input`).
 */
export function runOptionsOf(args: string[], known: readonly string[] = []): RunOptions {
  const options = parseRunOptions(args, { known });
  if (options.promptGiven)
    throw new UsageError(`workflow takes one file and options; "${options.prompt}" is neither.`);
  return options;
}
