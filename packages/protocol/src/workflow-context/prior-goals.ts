import type { PriorCompletion } from './render-input.js';

/** A prior goal as a context shows it: its label (`id` or `id[agent]`) and its latest output. */
export interface LabelledOutput {
  readonly label: string;
  readonly output: string;
}

/** The prior goals of a context: those outside loops, then one group per loop iteration (E8). */
export interface PriorGoals {
  readonly goals: readonly LabelledOutput[];
  readonly iterations: ReadonlyArray<{ readonly n: number; readonly goals: readonly LabelledOutput[] }>;
}

/**
 * Groups completions (oldest first) into the goals a context shows (E3, E8): keyed by `id` and
 * `agent`, in the order each key first completed, with its latest output; goals that ran in a loop
 * go to their (loop, iteration) group, groups in the order they first appear.
 */
export function priorGoals(prior: readonly PriorCompletion[]): PriorGoals {
  const outside = new Map<string, string>();
  const iterations = new Map<string, { n: number; outputs: Map<string, string> }>();
  for (const completion of prior) {
    const label = completion.agent === undefined ? completion.id : `${completion.id}[${completion.agent}]`;
    const outputs = completion.iteration === undefined ? outside : iterationOf(completion, iterations);
    // A Map keeps the position of a key's first set: a re-run updates the output in place.
    outputs.set(label, completion.output);
  }
  return {
    goals: labelled(outside),
    iterations: [...iterations.values()].map(({ n, outputs }) => ({ n, goals: labelled(outputs) })),
  };
}

function iterationOf(
  completion: PriorCompletion,
  iterations: Map<string, { n: number; outputs: Map<string, string> }>,
): Map<string, string> {
  const n = completion.iteration ?? 0;
  const key = JSON.stringify([completion.loop, n]);
  const found = iterations.get(key);
  if (found !== undefined) return found.outputs;
  const outputs = new Map<string, string>();
  iterations.set(key, { n, outputs });
  return outputs;
}

function labelled(outputs: ReadonlyMap<string, string>): LabelledOutput[] {
  return [...outputs].map(([label, output]) => ({ label, output }));
}
