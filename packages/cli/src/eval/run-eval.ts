import { agentOptions } from '../agent-file/agent-options.js';
import { type CliIo, processIo } from '../io/cli-io.js';
import { loadModel } from '../local/load-model.js';
import { loadPrices } from '../local/load-prices.js';
import { loadDefinition, modelsOf } from '../local/open-engine.js';
import { parseRunOptions } from '../local/run-options.js';
import { toolsFor } from '../local/tools-for.js';
import type { EvalCase, EvalResults, Scorer } from './eval-case.js';
import { resultsOf } from './eval-results.js';
import { type Candidate, candidateEngine, runCase } from './run-case.js';
import { loadScorers } from './scorers.js';

/** Who is evaluated and how its runs are scored. */
export interface RunEvalOptions {
  /** The candidate agent, as `agentstep run` takes it: `['--agent', 'candidate.ts']`, `['--model', …]`. @default the agent file of the working directory */
  agent?: string[];
  /** Scorers, or their specs as `--scorer` takes them (`answer-contains:TEXT`, `./scorer.ts`). @default answer-equals and same-calls */
  scorers?: ReadonlyArray<string | Scorer>;
  /** @default this process's */
  io?: CliIo;
}

/**
 * Replays each case with the candidate agent, one after another, every call answered from the
 * case's recording (no tool runs), and scores each run (decision 0048): `agentstep eval run`, and
 * yours in a test (`@agentstep/cli/testing`).
 */
export async function runEval(
  cases: readonly EvalCase[],
  options: RunEvalOptions = {},
): Promise<EvalResults> {
  const io = options.io ?? processIo();
  const candidate = await candidateOf(options.agent ?? [], io);
  const specs = (options.scorers ?? []).filter((scorer): scorer is string => typeof scorer === 'string');
  const given = (options.scorers ?? []).filter((scorer): scorer is Scorer => typeof scorer !== 'string');
  const scorers = [
    ...given,
    ...(specs.length > 0 || given.length === 0 ? await loadScorers(specs, io.workingDir) : []),
  ];
  const scored = [];
  for (const evalCase of cases) {
    const run = await runCase(evalCase, candidate, io);
    const scores: Record<string, number> = {};
    for (const scorer of scorers) scores[scorer.name] = await scorer.score({ case: evalCase, run });
    scored.push({ case: evalCase, run, scores });
  }
  return resultsOf(scored);
}

/** The candidate `args` name, loaded once for every case: its tools, model, prices and loop. */
async function candidateOf(args: readonly string[], io: CliIo): Promise<Candidate> {
  const options = await agentOptions(parseRunOptions([...args]), io, () => {});
  const tools = toolsFor(options, io);
  const loaded = await loadModel(options, io);
  const prices = await loadPrices(options, modelsOf(loaded), io);
  const agent = await loadDefinition(options, io);
  const parts = {
    agent,
    model: loaded.model,
    models: loaded.models,
    ...(loaded.summaryModel ? { summaryModel: loaded.summaryModel } : {}),
    prices,
  };
  return { tools, engine: candidateEngine(options, parts) };
}
