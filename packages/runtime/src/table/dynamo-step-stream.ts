import type { EventLog } from '../event-log/event-log.js';
import { LastSeqs } from '../session/last-seqs.js';
import type { StepStream, StreamedChunk } from '../session/step-stream.js';
import { DynamoStepDrafts, type DynamoStepDraftsOptions } from './dynamo-step-drafts.js';

/** Options of {@link DynamoStepStream}. */
export interface DynamoStepStreamOptions extends DynamoStepDraftsOptions {
  /** How long chunks gather before they are written as one draft. @default 100 */
  coalesceMs?: number;
}

/** The step a session's model is streaming: what is not written yet, and the writes under way. */
interface Pending {
  step: number;
  afterSeq: number;
  part: number;
  text: string;
  timer: ReturnType<typeof setTimeout> | undefined;
  written: Promise<void>;
}

/**
 * A {@link StepStream} for a model step in another process than its readers (a Lambda function):
 * each step's chunks are coalesced, at most one write per `coalesceMs`, into draft items of the
 * event-log table ({@link DynamoStepDrafts}), in order. A failed write is dropped: the logged step
 * stays the truth. Give the model step the log `watch` returns: a draft then knows the log's last
 * seq as its step began, and a step's last chunks are written before anything is appended after it.
 */
export class DynamoStepStream implements StepStream {
  readonly #drafts: DynamoStepDrafts;
  readonly #coalesceMs: number;
  readonly #seqs = new LastSeqs();
  readonly #pending = new Map<string, Pending>();

  constructor(options: DynamoStepStreamOptions) {
    this.#drafts = new DynamoStepDrafts(options);
    this.#coalesceMs = options.coalesceMs ?? 100;
  }

  write({ session, step, text }: StreamedChunk): void {
    let pending = this.#pending.get(session);
    if (pending?.step !== step) {
      // A new step's drafts are written after the last one's: the key order is the write order.
      const written = pending === undefined ? Promise.resolve() : this.#flush(session, pending);
      pending = {
        step,
        afterSeq: this.#seqs.of(session),
        part: 0,
        text: '',
        timer: undefined,
        written,
      };
      this.#pending.set(session, pending);
    }
    pending.text += text;
    const current = pending;
    current.timer ??= setTimeout(() => void this.#flush(session, current), this.#coalesceMs);
  }

  /** `log`, telling this stream each session's last seq, and writing a step's rest before an append. */
  watch(log: EventLog): EventLog {
    return this.#seqs.watch(log, async (session) => {
      const pending = this.#pending.get(session);
      if (pending === undefined) return;
      this.#pending.delete(session);
      await this.#flush(session, pending);
    });
  }

  #flush(session: string, pending: Pending): Promise<void> {
    clearTimeout(pending.timer);
    pending.timer = undefined;
    if (pending.text !== '') {
      const draft = {
        session,
        step: pending.step,
        part: pending.part++,
        afterSeq: pending.afterSeq,
        text: pending.text,
      };
      pending.text = '';
      pending.written = pending.written.then(() => this.#drafts.put(draft)).catch(() => {});
    }
    return pending.written;
  }
}
