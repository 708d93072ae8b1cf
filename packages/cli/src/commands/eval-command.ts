import { storedSession } from '@agentstep/runtime';
import { type EvalCase, type EvalResults, evalCaseSchema } from '../eval/eval-case.js';
import { regressions, resultsTable } from '../eval/eval-results.js';
import { evalCasesOf } from '../eval/export-cases.js';
import { runEval } from '../eval/run-eval.js';
import type { CliIo } from '../io/cli-io.js';
import { checkedSessionId } from '../local/parse-session-args.js';
import { readSessionLog } from '../local/read-session-log.js';
import { parseOptions } from '../parse-options.js';
import { UsageError } from '../usage-error.js';

/** Where `eval run` writes its results when `--out` names no file. */
const DEFAULT_OUT = 'eval-results.json';

/**
 * `agentstep eval export SESSION… [--tenant T]`: each ended turn of the sessions as a test case, one
 * JSON line each. `agentstep eval run FILE [--scorer SPEC]… [--out FILE] [--baseline FILE]
 * [--tolerance N] [run options]`: the cases replayed with the candidate agent, scored, a table and
 * the results' JSON; exit 1 on a regression from the baseline beyond the tolerance (decision 0048).
 */
export async function evalCommand(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'export') return exportCases(rest, io);
  if (action === 'run') return runCases(rest, io);
  throw new UsageError('eval takes export SESSION… or run FILE.');
}

async function exportCases(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: { tenant: { type: 'string' } },
  });
  if (positionals.length === 0) throw new UsageError('eval export takes one or more session ids.');
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    for (const given of positionals.map(checkedSessionId)) {
      const session = values.tenant === undefined ? given : storedSession(values.tenant, given);
      const events = await readSessionLog('eval export', session, store.log, io);
      if (events === undefined) return 1;
      const [entries, origin] = await Promise.all([store.usage.list(session), store.log.origin(session)]);
      const log = { events, entries, ...(origin === undefined ? {} : { after: origin.seq }) };
      for (const evalCase of evalCasesOf(session, log)) io.stdout(`${JSON.stringify(evalCase)}\n`);
    }
    return 0;
  } finally {
    await store.close();
  }
}

async function runCases(args: string[], io: CliIo): Promise<number> {
  const [file, ...rest] = args;
  if (file === undefined || file.startsWith('-'))
    throw new UsageError('eval run takes the cases file first: eval run cases.jsonl [options].');
  const { evalFlags, agent } = splitEvalFlags(rest);
  const cases = parseCases(await io.readFile(file), file);
  const results = await runEval(cases, { agent, scorers: evalFlags.scorers, io });
  io.stdout(`${resultsTable(results)}\n`);
  await io.writeFile(evalFlags.out, `${JSON.stringify(results, null, 2)}\n`);
  io.stderr(`agentstep eval: ${cases.length} cases; results in ${evalFlags.out}.\n`);
  if (evalFlags.baseline === undefined) return 0;
  const baseline = JSON.parse(await io.readFile(evalFlags.baseline)) as EvalResults;
  const worse = regressions(results, baseline, evalFlags.tolerance);
  for (const line of worse) io.stdout(`regression: ${line}\n`);
  return worse.length === 0 ? 0 : 1;
}

/** `eval run`'s own flags, and the rest: the candidate agent's options, as `agentstep run` takes them. */
function splitEvalFlags(args: string[]) {
  const evalFlags = {
    scorers: [] as string[],
    out: DEFAULT_OUT,
    baseline: undefined as string | undefined,
    tolerance: 0,
  };
  const agent: string[] = [];
  const rest = [...args];
  for (let arg = rest.shift(); arg !== undefined; arg = rest.shift()) {
    if (!EVAL_FLAGS.has(arg)) {
      agent.push(arg);
      continue;
    }
    const value = rest.shift();
    if (value === undefined) throw new UsageError(`${arg} needs a value.`);
    if (arg === '--scorer') evalFlags.scorers.push(value);
    else if (arg === '--out') evalFlags.out = value;
    else if (arg === '--baseline') evalFlags.baseline = value;
    else evalFlags.tolerance = toleranceOf(value);
  }
  return { evalFlags, agent };
}

/** The flags `eval run` reads itself; every other one is the candidate's. */
const EVAL_FLAGS: ReadonlySet<string> = new Set(['--scorer', '--out', '--baseline', '--tolerance']);

function toleranceOf(text: string): number {
  const tolerance = Number(text);
  if (!Number.isFinite(tolerance) || tolerance < 0 || tolerance > 1)
    throw new UsageError(`--tolerance takes a score difference from 0 to 1, received "${text}".`);
  return tolerance;
}

/** The cases of a JSON-lines file; a line that is no case is a UsageError naming it. */
function parseCases(text: string, file: string): EvalCase[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => {
      const parsed = (() => {
        try {
          return evalCaseSchema.safeParse(JSON.parse(line));
        } catch {
          return undefined;
        }
      })();
      if (!parsed?.success)
        throw new UsageError(
          `${file}:${number} is not a case of agentstep eval export (one JSON object per line).`,
        );
      return parsed.data;
    });
}
