import type { GoalPhase } from '@agentstep/protocol';
import { type Logged, type RunLog, recordsOf } from './run-log.js';

/** One goal attempt: its slot, goal and attempt number, as every record of it names them. */
export interface Attempt {
  slot: string;
  goal: string;
  attempt: number;
}

/**
 * The ended child runs of one goal attempt, by phase, agent and iteration: the latest of each
 * (an abandoned run, whose execution died, counts as not run).
 */
export class AttemptOutputs {
  readonly #latest = new Map<string, Logged<'output'>>();

  constructor(log: RunLog, at: Attempt) {
    for (const logged of recordsOf(log, 'output')) {
      const { record } = logged;
      if (record.slot !== at.slot || record.attempt !== at.attempt) continue;
      const key = keyOf(record.phase, record.agent, record.n);
      if (record.status === 'abandoned') this.#latest.delete(key);
      else this.#latest.set(key, logged);
    }
  }

  /** The phase's ended run (for `agent`, iteration `n`), if it ran. */
  get(phase: GoalPhase, agent?: string, n?: number): Logged<'output'> | undefined {
    return this.#latest.get(keyOf(phase, agent, n));
  }

  /** A CONVERGE goal's ended iterations, in order from 1, up to the first one missing. */
  iterations(): Array<Logged<'output'>> {
    const iterations: Array<Logged<'output'>> = [];
    for (let n = 1; ; n++) {
      const iteration = this.get('iteration', undefined, n);
      if (iteration === undefined) return iterations;
      iterations.push(iteration);
    }
  }
}

function keyOf(phase: GoalPhase, agent: string | undefined, n: number | undefined): string {
  return JSON.stringify([phase, agent ?? null, n ?? null]);
}
