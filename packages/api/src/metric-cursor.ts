import type { StoredEvent, WireEventOf } from '@agentstep/protocol';
import { metricEvents, type StepUsage } from '@agentstep/runtime';

/**
 * Which of a session's `metric` events a stream has sent. Metrics have no seq (they are not part of
 * the log), so a resumed stream counts as sent the metrics of every step logged up to its resume
 * point, and of every turn that ended by then.
 */
export class MetricCursor {
  #sent: number;

  private constructor(sent: number) {
    this.#sent = sent;
  }

  /** A cursor for a stream resuming after `seq`, given the session's log and usage ledger. */
  static after(seq: number, log: readonly StoredEvent[], entries: readonly StepUsage[]): MetricCursor {
    const shown = log.filter((stored) => stored.seq <= seq);
    const batches = new Set(shown.map((stored) => stored.batch));
    const endedTurns = new Set(
      shown.flatMap(({ event }) => (event.type === 'turn_end' ? [event.payload.turn] : [])),
    );
    const delivered = (entry: StepUsage) => batches.has(entry.batch) || endedTurns.has(turnOf(entry));
    const firstOwed = entries.findIndex((entry) => !delivered(entry));
    return new MetricCursor(firstOwed === -1 ? entries.length : firstOwed);
  }

  /**
   * The metric events owed, oldest first (`total` counts the session up to each); they count as
   * sent. Given the `turn` about to end, only those up to its last step: a later turn's wait for
   * that turn's end.
   */
  owed(entries: readonly StepUsage[], turn?: string): Array<WireEventOf<'metric'>> {
    const through =
      turn === undefined ? entries.length : entries.findLastIndex((entry) => turnOf(entry) === turn) + 1;
    const owed = metricEvents(entries).slice(this.#sent, through);
    this.#sent = Math.max(this.#sent, through);
    return owed;
  }
}

/** The turn of a ledger entry: its batch (`TURN.STEP`) without the step. */
function turnOf(entry: StepUsage): string {
  return entry.batch.slice(0, entry.batch.lastIndexOf('.'));
}
