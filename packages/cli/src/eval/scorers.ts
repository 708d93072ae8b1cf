import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { moduleDefault } from '@agentstep/runtime';
import { UsageError } from '../usage-error.js';
import type { CaseRun, EvalCase, RecordedCall, Scorer } from './eval-case.js';

/** The scorers `eval run` uses when `--scorer` names none. */
export const DEFAULT_SCORERS = ['answer-equals', 'same-calls'] as const;

/** A built-in scorer's maker: `argument` is what follows `name:` in its spec (`answer-contains:TEXT`). */
interface BuiltIn {
  /** What its argument is, when it takes one (`TEXT`, `REGEX`). */
  argument?: string;
  make(spec: string, argument: string): Scorer;
}

/** The built-in scorers by name: `builtInScorer`'s registry, and the list its errors give. */
const BUILT_INS: Record<string, BuiltIn> = {
  'answer-equals': {
    make: (name) => ({
      name,
      score: ({ case: recorded, run }) => Number(run.answer.trim() === recorded.answer.trim()),
    }),
  },
  'answer-contains': {
    argument: 'TEXT',
    make: (name, text) => ({ name, score: ({ run }) => Number(run.answer.includes(text)) }),
  },
  'answer-matches': {
    argument: 'REGEX',
    make: (name, source) => {
      const pattern = regexOf(name, source);
      return { name, score: ({ run }) => Number(pattern.test(run.answer)) };
    },
  },
  'same-calls': {
    make: (name) => ({
      name,
      score: ({ case: recorded, run }) => Number(callsKey(run.calls) === callsKey(recorded.calls)),
    }),
  },
  'fewer-steps': {
    make: (name) => ({
      name,
      score: ({ case: recorded, run }) => (run.steps <= recorded.steps ? 1 : recorded.steps / run.steps),
    }),
  },
  cost: {
    make: (name) => ({ name, score: ({ case: recorded, run }) => costScore(recorded, run) }),
  },
};

/**
 * The built-in scorer `spec` names: `answer-equals`, `answer-contains:TEXT`, `answer-matches:REGEX`,
 * `same-calls`, `fewer-steps` or `cost`, named by its spec. An unknown name, a missing argument or
 * a bad regex is a UsageError that says so.
 */
export function builtInScorer(spec: string): Scorer {
  const colon = spec.indexOf(':');
  const name = colon === -1 ? spec : spec.slice(0, colon);
  const builtIn = BUILT_INS[name];
  if (builtIn === undefined)
    throw new UsageError(
      `--scorer ${spec}: there is no such scorer; use one of ${knownScorers()}, or a scorer file (.ts, .js, .mjs).`,
    );
  if (builtIn.argument === undefined && colon !== -1)
    throw new UsageError(`--scorer ${spec}: ${name} takes no argument; use --scorer ${name}.`);
  if (builtIn.argument !== undefined && colon === -1)
    throw new UsageError(
      `--scorer ${spec}: ${name} needs an argument; use --scorer ${name}:${builtIn.argument}.`,
    );
  return builtIn.make(spec, spec.slice(colon + 1));
}

/**
 * The scorers `specs` name (the defaults when none), in order: a path ending in .ts, .js or .mjs
 * (from `workingDir`) is a file whose default export is a scorer or a list of them; anything else is
 * a built-in. A file that is missing, does not load or exports no scorers, and two scorers of one
 * name, are UsageErrors naming them.
 */
export async function loadScorers(specs: readonly string[], workingDir: string): Promise<Scorer[]> {
  const chosen = specs.length === 0 ? DEFAULT_SCORERS : specs;
  const scorers: Scorer[] = [];
  for (const spec of chosen)
    scorers.push(
      ...(/\.(ts|js|mjs)$/.test(spec) ? await scorerFile(spec, workingDir) : [builtInScorer(spec)]),
    );
  const names = scorers.map(({ name }) => name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined)
    throw new UsageError(`--scorer: two scorers are named ${twice}; give each scorer its own name.`);
  return scorers;
}

function knownScorers(): string {
  return Object.entries(BUILT_INS)
    .map(([name, { argument }]) => (argument === undefined ? name : `${name}:${argument}`))
    .join(', ');
}

function regexOf(spec: string, source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    throw new UsageError(
      `--scorer ${spec}: ${source} is not a valid regular expression (${firstLine(error)}).`,
      {
        cause: error,
      },
    );
  }
}

/** Calls' tools and arguments as one text, object keys sorted, so that key order makes no difference. */
function callsKey(calls: readonly RecordedCall[]): string {
  return JSON.stringify(calls.map(({ tool, args }) => [tool, canonical(args)]));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/** 1 when the run spent no more than the recording (cost when both have one, else tokens), else recorded / run. */
function costScore(recorded: EvalCase, run: CaseRun): number {
  const bothPriced = recorded.usage.costUsd !== undefined && run.usage.costUsd !== undefined;
  const was = bothPriced ? (recorded.usage.costUsd ?? 0) : recorded.usage.input + recorded.usage.output;
  const is = bothPriced ? (run.usage.costUsd ?? 0) : run.usage.input + run.usage.output;
  return is <= was ? 1 : was / is;
}

/** A scorer file's scorers; TypeScript loads without a build step (as agent files do). */
async function scorerFile(file: string, workingDir: string): Promise<Scorer[]> {
  const path = resolve(workingDir, file);
  if (!existsSync(path))
    throw new UsageError(
      `--scorer ${file}: there is no such file (${path}); name a scorer file or a built-in scorer.`,
    );
  let module: { default?: unknown };
  try {
    // Imported only when there is a scorer file: tsx registers its loader as it loads.
    const { tsImport } = await import('tsx/esm/api');
    module = await tsImport(pathToFileURL(path).href, import.meta.url);
  } catch (error) {
    throw new UsageError(`${file}: cannot load the scorer file (${firstLine(error)}).`, { cause: error });
  }
  const exported = moduleDefault(module);
  const scorers = Array.isArray(exported) ? exported : [exported];
  if (scorers.length === 0 || !scorers.every(isScorer))
    throw new UsageError(
      `${file}: its default export is not a scorer or a list of them; export default defineScorer({ name, score }) (score returns 0 to 1).`,
    );
  return scorers;
}

function isScorer(value: unknown): value is Scorer {
  if (typeof value !== 'object' || value === null) return false;
  const { name, score } = value as { name?: unknown; score?: unknown };
  return typeof name === 'string' && name.length > 0 && typeof score === 'function';
}

/** An error's message in one line: a syntax error's `ERROR:` line (tsx's), else its first line. */
function firstLine(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).split('\n');
  return (lines.find((line) => line.includes('ERROR:')) ?? lines[0] ?? '').replace(/\.$/, '');
}
