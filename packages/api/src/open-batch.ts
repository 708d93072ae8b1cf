import type { CallOutcome, StoredEvent } from '@agentstep/protocol';
import type { OutcomeStore, StoredOutcome } from '@agentstep/runtime';

/**
 * The batch of a log whose calls are logged and whose `result` is not yet, followed event by event,
 * and the outcomes of its calls as InvokeTool stores them meanwhile (read from the outcome store),
 * each handed on once: the log's `result` stays what is final, and says the same (it is made of
 * these outcomes). A call waiting for a person has none to read; one whose approval was refused
 * has one (its failure), never handed on: its approval already says it will not run.
 */
export class OpenBatch {
  #batch: string | undefined;
  /** The calls of the open batch: one past its highest position logged. */
  #count = 0;
  /** Positions whose approval is requested and not yet settled. */
  readonly #waiting = new Set<number>();
  /** Positions whose approval was settled with no run (denied, expired, cancelled). */
  readonly #refused = new Set<number>();
  /** Positions whose outcome was handed on. */
  readonly #taken = new Set<number>();

  /** Moves on over events of the log, oldest first. */
  see(events: readonly StoredEvent[]): void {
    for (const { batch, position, event } of events) {
      if (event.type === 'turn_end') this.#open(undefined);
      if (batch === undefined) continue;
      if (event.type === 'call') {
        if (batch !== this.#batch) this.#open(batch);
        this.#count = Math.max(this.#count, (position ?? 0) + 1);
      }
      if (batch !== this.#batch) continue;
      if (event.type === 'result') this.#open(undefined);
      if (event.type !== 'approval') continue;
      const { index, status } = event.payload;
      if (status === 'requested') this.#waiting.add(index);
      else this.#waiting.delete(index);
      if (status !== 'requested' && status !== 'approved') this.#refused.add(index);
    }
  }

  /** Whether a call of the open batch that waits for no person has had no outcome handed on yet. */
  get underway(): boolean {
    return this.#unread().length > 0;
  }

  /**
   * The stored outcomes of the open batch's calls not handed on yet, none of a call waiting for a
   * person or refused one. Read it before the log that {@link take} then sees: a call that waited
   * for approval has an outcome only once its decision is logged, so that read of the log holds
   * the decision (a refusal then keeps the call's failure back).
   */
  async read(outcomes: OutcomeStore, session: string): Promise<CallOutcome[]> {
    const wanted = this.wanted;
    if (wanted === undefined) return [];
    return this.pick(wanted.batch, await outcomes.list(session, wanted.batch, wanted.count));
  }

  /** The batch and call count to list outcomes of, while a call of it is still to hand on; else none. */
  get wanted(): { batch: string; count: number } | undefined {
    if (this.#batch === undefined || this.#unread().length === 0) return undefined;
    return { batch: this.#batch, count: this.#count };
  }

  /** What {@link read} answers, given the outcomes `stored` of `batch` as listed (by whoever listed them). */
  pick(batch: string, stored: ReadonlyArray<StoredOutcome | undefined>): CallOutcome[] {
    if (batch !== this.#batch) return [];
    return this.#unread().flatMap((position) => {
      const outcome = stored[position];
      return outcome === undefined ? [] : [callOutcome(batch, position, outcome)];
    });
  }

  /**
   * The outcomes of a {@link read} still to hand on once the log read after it has been seen (none
   * of a batch whose `result` is logged meanwhile, none of a call refused meanwhile, none twice);
   * they count as handed on.
   */
  take(read: readonly CallOutcome[]): CallOutcome[] {
    const unread = new Set(this.#unread());
    const due = read.filter(({ batch, position }) => batch === this.#batch && unread.has(position));
    for (const { position } of due) this.#taken.add(position);
    return due;
  }

  #open(batch: string | undefined): void {
    this.#batch = batch;
    this.#count = 0;
    this.#waiting.clear();
    this.#refused.clear();
    this.#taken.clear();
  }

  /** The open batch's calls whose outcome is still to hand on: neither waiting for a person nor refused. */
  #unread(): number[] {
    if (this.#batch === undefined) return [];
    return Array.from({ length: this.#count }, (_, position) => position).filter(
      (position) =>
        !this.#taken.has(position) && !this.#waiting.has(position) && !this.#refused.has(position),
    );
  }
}

/** A stored outcome as the `result` will hold it at `position` (`content` never missing), with its run's ms. */
function callOutcome(batch: string, position: number, { ms, ...outcome }: StoredOutcome): CallOutcome {
  const item = outcome.status === 'success' ? { ...outcome, content: outcome.content ?? null } : outcome;
  return { type: 'call_outcome', batch, position, ...item, ...(ms === undefined ? {} : { ms }) };
}
