import type { TurnInput } from '@agentstep/protocol';
import {
  announceTurnEnd,
  type Clock,
  closeStoppedTurn,
  type EventLog,
  type ExecutionStarter,
  type OutcomeStore,
  type UsageLedger,
} from '@agentstep/runtime';
import type { LocalEngine, TurnRun } from './local-engine.js';

/** What the starter closes turns with: the stores and the clock. */
type StarterDeps = { log: EventLog; outcomes: OutcomeStore; usage: UsageLedger; clock: Clock };

/** How long a finished run stays available to `finished`. */
const FORGET_AFTER_MS = 60_000;

/**
 * An {@link ExecutionStarter} on the local engine: a start runs the turn in this process, and
 * `finished` waits for it. If the execution ends without closing the turn (stopped, or the engine
 * itself failed: the turn's own failures end in the state machine), the turn is closed here:
 * cancelled if it was asked to stop, else failed, its open batch answered and its session freed,
 * and its end announced on the engine's event bus.
 */
export class LocalExecutionStarter implements ExecutionStarter {
  readonly #engine: LocalEngine;
  readonly #deps: StarterDeps;
  readonly #runs = new Map<string, Promise<TurnRun>>();
  /** The turns whose runs have not ended yet, by execution id. */
  readonly #going = new Map<string, { session: string; turn: string }>();

  constructor(engine: LocalEngine, deps: StarterDeps) {
    this.#engine = engine;
    this.#deps = deps;
  }

  async start(input: TurnInput): Promise<string> {
    const id = `local:${input.session}:${input.turn}`;
    if (!this.#runs.has(id)) {
      const run = this.#run(input);
      this.#runs.set(id, run);
      this.#going.set(id, { session: input.session, turn: input.turn });
      // Observed by `finished`; never an unhandled rejection meanwhile. Forgotten a while after
      // it ends, so a long-lived server does not keep every turn it ran.
      run
        .catch(() => {})
        .finally(() => {
          this.#going.delete(id);
          setTimeout(() => this.#runs.delete(id), FORGET_AFTER_MS).unref();
        });
    }
    return id;
  }

  async stop(turn: { session: string; turn: string }): Promise<void> {
    this.#engine.stopTurn(turn);
  }

  /** The turns running now: a server stopping cancels them. */
  running(): Array<{ session: string; turn: string; execution: string }> {
    return [...this.#going].map(([execution, turn]) => ({ ...turn, execution }));
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
      const events = this.#engine.eventBus;
      await announceTurnEnd({ ...input, request: input.request ?? null }, { ...this.#deps, events });
      throw error;
    }
  }
}
