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
import { type ExecutionOwners, type OwnedTurn, THIS_PROCESS } from './executions/execution-owners.js';
import { otherProcessAlive } from './executions/other-process-alive.js';
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

/** The executions every starter of this process is running now, by id. */
const runningHere = new Set<string>();

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
  readonly #owners: ExecutionOwners | undefined;

  constructor(engine: LocalEngine, deps: StarterDeps, options: LocalExecutionStarterOptions = {}) {
    this.#engine = engine;
    this.#deps = deps;
    this.#owners = options.owners;
  }

  async start(input: TurnInput): Promise<string> {
    const id = executionId(input);
    if (!this.#runs.has(id)) {
      this.#owners?.claim({ session: input.session, turn: input.turn, request: input.request ?? null });
      const run = this.#run(input);
      this.#runs.set(id, run);
      this.#going.set(id, { session: input.session, turn: input.turn });
      runningHere.add(id);
      // Observed by `finished`; never an unhandled rejection meanwhile. Forgotten a while after
      // it ends, so a long-lived server does not keep every turn it ran.
      run
        .catch(() => {})
        .finally(() => {
          this.#going.delete(id);
          runningHere.delete(id);
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

  /**
   * Closes every recorded turn whose execution no live process runs any more: its owner process
   * has died (killed, or its machine restarted), or it is this process and the run has ended
   * without the turn being closed (the store was unavailable when it ended). Each is closed as a
   * stopped execution's turn is (failed, or cancelled if it was asked to stop), unless another
   * turn holds its session by now. A turn that cannot be closed yet stays recorded for the next
   * call. Returns the turns it closed.
   */
  async closeOrphans(): Promise<Array<{ session: string; turn: string }>> {
    const orphans = (this.#owners?.list() ?? []).filter((owned) => !this.#alive(owned));
    const closed = await Promise.all(orphans.map((owned) => this.#closeOrphan(owned).catch(() => false)));
    return orphans.filter((_, index) => closed[index]).map(({ session, turn }) => ({ session, turn }));
  }

  #alive({ owner, session, turn }: OwnedTurn): boolean {
    if (owner.pid !== THIS_PROCESS.pid) return otherProcessAlive(owner.pid);
    return owner.instance === THIS_PROCESS.instance && runningHere.has(executionId({ session, turn }));
  }

  async #closeOrphan(owned: OwnedTurn): Promise<boolean> {
    const holder = await this.#deps.log.holder(owned.session);
    const ended =
      owned.owner.instance === THIS_PROCESS.instance
        ? 'ended while the store was unavailable'
        : `ended with its process (pid ${owned.owner.pid})`;
    if (holder?.turn === owned.turn)
      await this.#close(owned, `The turn's execution ${ended}, without closing the turn.`);
    this.#owners?.release(owned);
    return holder?.turn === owned.turn;
  }

  async #run(input: TurnInput): Promise<TurnRun> {
    const turn = { ...input, request: input.request ?? null };
    try {
      const run = await this.#engine.runTurn(input);
      this.#owners?.release(turn);
      return run;
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      await this.#close(turn, `The turn's execution ended without closing the turn: ${reason}`);
      this.#owners?.release(turn);
      throw error;
    }
  }

  /** Closes a turn its execution left open, and announces its end on the engine's bus. */
  async #close(turn: Omit<OwnedTurn, 'owner'>, failure: string): Promise<void> {
    await closeStoppedTurn(turn, failure, this.#deps);
    await announceTurnEnd(turn, { ...this.#deps, events: this.#engine.eventBus });
  }
}

function executionId({ session, turn }: { session: string; turn: string }): string {
  return `local:${session}:${turn}`;
}
