import type { AppendRequest, EventLog } from '../event-log/event-log.js';
import { eventLogWith } from '../event-log/event-log-with.js';

/**
 * Each session's highest seq a process appended or read, learnt from the logs it watches: what a
 * `StepStream` tags a step's text with, the log's last seq as the step began (a model step reads
 * its session's log before the model streams).
 */
export class LastSeqs {
  readonly #seqs = new Map<string, number>();

  /** `session`'s highest seq seen (0 when none). */
  of(session: string): number {
    return this.#seqs.get(session) ?? 0;
  }

  /**
   * `log`, noting each session's last seq as it is appended or read; `beforeAppend` is awaited
   * before each append (a step's output is over once anything is appended after it began).
   */
  watch(log: EventLog, beforeAppend: (session: string) => Promise<void> | void): EventLog {
    const append = async (request: AppendRequest) => {
      await beforeAppend(request.session);
      const result = await log.append(request);
      this.#saw(request.session, result.firstSeq + result.count - 1);
      return result;
    };
    const read: EventLog['read'] = async (session, options) => {
      const events = await log.read(session, options);
      this.#saw(session, events.at(-1)?.seq ?? 0);
      return events;
    };
    return eventLogWith(log, { append, read });
  }

  #saw(session: string, seq: number): void {
    if (seq > this.of(session)) this.#seqs.set(session, seq);
  }
}
