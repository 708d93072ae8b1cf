import type { TurnInput } from '@agentstep/protocol';
import { type Clock, type EventLog, type ExecutionStarter, endTurn } from '@agentstep/runtime';
import type { LocalEngine, TurnRun } from './local-engine.js';

/**
 * An {@link ExecutionStarter} on the local engine: a start runs the turn in this process, and
 * `finished` waits for it. If the engine itself fails (the turn's own failures end in the state
 * machine), the turn still ends in the log and its session is freed.
 */
export class LocalExecutionStarter implements ExecutionStarter {
  readonly #engine: LocalEngine;
  readonly #deps: { log: EventLog; clock: Clock };
  readonly #runs = new Map<string, Promise<TurnRun>>();

  constructor(engine: LocalEngine, deps: { log: EventLog; clock: Clock }) {
    this.#engine = engine;
    this.#deps = deps;
  }

  async start(input: TurnInput): Promise<string> {
    const id = `local:${input.session}:${input.turn}`;
    if (!this.#runs.has(id)) {
      const run = this.#run(input);
      run.catch(() => {}); // Observed by `finished`; never an unhandled rejection meanwhile.
      this.#runs.set(id, run);
    }
    return id;
  }

  /** The turn the execution `id` runs, once it has ended. */
  finished(id: string): Promise<TurnRun> {
    const run = this.#runs.get(id);
    if (run === undefined) throw new Error(`No local execution ${id} was started.`);
    return run;
  }

  async #run(input: TurnInput): Promise<TurnRun> {
    try {
      return await this.#engine.runTurn(input);
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const message = `The turn's execution could not run: ${reason}`;
      await endTurn({ session: input.session, turn: input.turn, status: 'failed', message }, this.#deps);
      throw error;
    }
  }
}
