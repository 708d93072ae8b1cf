import type { TurnInput } from '@agentstep/protocol';
import type { Clock, EventLog, ExecutionStarter, OutcomeStore, UsageLedger } from '@agentstep/runtime';
import { closeDeadTurn, closeOrphanedTurns, executionId } from './executions/close-orphaned-turns.js';
import type { ExecutionOwners } from './executions/execution-owners.js';
import { thisProcess } from './executions/this-process.js';
import type { LocalEngine, TurnRun } from './local-engine.js';

/** What the starter closes turns with: the stores and the clock. */
type StarterDeps = { log: EventLog; outcomes: OutcomeStore; usage: UsageLedger; clock: Clock };

/** Options of {@link LocalExecutionStarter}. */
export interface LocalExecutionStarterOptions {
  /**
   * Where the turns it runs are recorded with this process as their owner, so that a later
   * process on the same store can close those it left running when it died (`closeOrphans`).
   * @default none: nothing outlives this process (an in-memory store)
   */
  owners?: ExecutionOwners;
}

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
  /** The engine new executions start on (`use`). */
  #engine: LocalEngine;
  /** Every engine it started executions on: an execution runs to its end on the one it started on. */
  readonly #engines = new Set<LocalEngine>();
  readonly #deps: StarterDeps;
  readonly #runs = new Map<string, Promise<TurnRun>>();
  /** The turns whose runs have not ended yet, by execution id. */
  readonly #going = new Map<string, { session: string; turn: string }>();
  readonly #owners: ExecutionOwners | undefined;

  constructor(engine: LocalEngine, deps: StarterDeps, options: LocalExecutionStarterOptions = {}) {
    this.#engine = engine;
    this.#engines.add(engine);
    this.#deps = deps;
    this.#owners = options.owners;
  }

  /**
   * Starts every new execution on `engine` from now on (an agent's new version, decision 0040);
   * those running go on to their end on the engine they started on.
   */
  use(engine: LocalEngine): void {
    this.#engine = engine;
    this.#engines.add(engine);
  }

  async start(input: TurnInput): Promise<string> {
    const id = executionId(input);
    if (!this.#runs.has(id)) {
      this.#owners?.claim({ session: input.session, turn: input.turn, request: input.request ?? null });
      const run = this.#run(input);
      this.#runs.set(id, run);
      this.#going.set(id, { session: input.session, turn: input.turn });
      thisProcess.running.add(id);
      // Observed by `finished`; never an unhandled rejection meanwhile. Forgotten a while after
      // it ends, so a long-lived server does not keep every turn it ran.
      run
        .catch(() => {})
        .finally(() => {
          this.#going.delete(id);
          thisProcess.running.delete(id);
          setTimeout(() => this.#runs.delete(id), FORGET_AFTER_MS).unref();
        });
    }
    return id;
  }

  async stop(turn: { session: string; turn: string }): Promise<void> {
    for (const engine of this.#engines) engine.stopTurn(turn);
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

  /**
   * Closes the recorded turns whose execution no live process runs any more, announcing their
   * ends on the engine's bus (see `closeOrphanedTurns`); returns them. Nothing without `owners`.
   */
  async closeOrphans(): Promise<Array<{ session: string; turn: string }>> {
    if (this.#owners === undefined) return [];
    return closeOrphanedTurns(this.#owners, { ...this.#deps, events: this.#engine.eventBus });
  }

  async #run(input: TurnInput): Promise<TurnRun> {
    const turn = { ...input, request: input.request ?? null };
    const engine = this.#engine;
    try {
      const run = await engine.runTurn(input);
      this.#owners?.release(turn);
      return run;
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const failure = `The turn's execution ended without closing the turn: ${reason}`;
      await closeDeadTurn(turn, failure, { ...this.#deps, events: engine.eventBus });
      this.#owners?.release(turn);
      throw error;
    }
  }
}
