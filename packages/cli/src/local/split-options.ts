import { UsageError } from '../usage-error.js';

/** `run` options that name one turn or one terminal, which serve and invoke have no use for. */
const RUN_ONLY = new Set([
  '--session',
  '--take-over',
  '--if-busy',
  '--lease',
  '--record',
  '--json',
  '--mode',
]);
/** Options that take no value: `run`'s, and `invoke --events`. */
const SWITCHES = new Set(['--json', '--sequential', '--take-over', '--events']);

/**
 * Splits a command's arguments into its own options (`own`, by flag) and the `run` options that
 * configure its agent. A prompt, or a run option that names one turn, is a UsageError saying
 * what to do instead (`noPrompt`).
 */
export function splitOptions(
  args: string[],
  own: readonly string[],
  command: string,
  noPrompt: string,
): { own: Record<string, string>; run: string[] } {
  const mine: Record<string, string> = {};
  const run: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    const [flag = '', inline] = arg.split(/=(.*)/s, 2);
    if (!flag.startsWith('--')) throw new UsageError(`${command} takes no prompt ("${arg}"): ${noPrompt}.`);
    if (RUN_ONLY.has(flag)) throw new UsageError(`${flag} applies to \`agentstep run\`, not to ${command}.`);
    const takesValue = !SWITCHES.has(flag) && inline === undefined;
    const value = inline ?? (takesValue ? args[++index] : undefined);
    if (own.includes(flag)) mine[flag] = value ?? '';
    else run.push(flag, ...(value === undefined ? [] : [value]));
  }
  return { own: mine, run };
}
