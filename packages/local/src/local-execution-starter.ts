import type { TurnInput } from '@agentstep/protocol';
import type { Clock, EventLog } from '@agentstep/runtime';
import { closeStoppedTurn, type ExecutionStarter, type OutcomeStore } from '@agentstep/runtime';
import type { LocalEngine, TurnRun } from './local-engine.js';

/**
 * An {@link ExecutionStarter} on the local engine: a start runs the turn in this process, and
 * `finished` waits for it. If the execution ends without closing the turn (stopped, or the engine
 * itself failed: the turn's own failures end in the state machine), the turn is closed here:
 * cancelled if it was asked to stop, else failed, its open batch answered and its session freed.
 */
export class LocalExecutionStarter implements ExecutionStarter {
  readonly #engine: LocalEngine;
  readonly #deps: { log: EventLog; outcomes: OutcomeStore; clock: Clock };
  readonly #runs = new Map<string, Promise<TurnRun>>();

  constructor(engine: LocalEngine, deps: { log: EventLog; outcomes: OutcomeStore; clock: Clock }) {
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

  async stop(turn: { session: string; turn: string }): Promise<void> {
    this.#engine.stopTurn(turn);
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
      await closeStoppedTurn(
        input,
        `The turn's execution ended without closing the turn: ${reason}`,
        this.#deps,
      );
      throw error;
    }
  }
}
