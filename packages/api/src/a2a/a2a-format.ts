import type { ErrorBody, StoredEvent } from '@agentstep/protocol';
import type { Frame, StreamFormat } from '../stream-format.js';
import { A2aError } from './a2a-error.js';
import { a2aTask } from './a2a-task.js';
import type { A2aStreamResponse } from './a2a-wire.js';

/** How a binding writes a stream's events: JSON-RPC wraps each in a response to the request. */
export interface A2aBinding {
  data(response: A2aStreamResponse): string;
  error(error: A2aError): string;
}

/** JSON-RPC's stream: each event a response to request `id`. */
export function jsonRpcStream(id: string | number | null): A2aBinding {
  return {
    data: (result) => JSON.stringify({ jsonrpc: '2.0', id, result }),
    error: (error) => JSON.stringify({ jsonrpc: '2.0', id, error: error.jsonRpc }),
  };
}

/** The HTTP+JSON binding's stream: each event as it is. */
export const restStream: A2aBinding = {
  data: (response) => JSON.stringify(response),
  error: (error) => JSON.stringify(error.rest),
};

/**
 * One task (a turn) as A2A 1.0 stream events: the task as it stands first, then a status update for
 * each event the turn logs (working, with what it did; input-required once a call waits for a
 * person), and at its end the answer as an artifact and the final status. The stream closes at the
 * end, or once a call waits (the client answers with a message on the task, and follows it again).
 */
export class A2aFormat implements StreamFormat {
  readonly headers = {};
  readonly #session: string;
  readonly #turn: string;
  readonly #binding: A2aBinding;
  readonly #events: StoredEvent[] = [];
  #started = false;
  /** The turn's end was taken in: later events are another turn's. */
  #over = false;

  constructor(task: { session: string; turn: string }, binding: A2aBinding) {
    this.#session = task.session;
    this.#turn = task.turn;
    this.#binding = binding;
  }

  catchUp(held: readonly StoredEvent[]): void {
    for (const stored of held) if (!this.#over) this.#see(stored);
  }

  event(stored: StoredEvent): Frame[] {
    if (this.#over) return [];
    this.#see(stored);
    const task = a2aTask({ session: this.#session, turn: this.#turn, events: this.#events });
    if (!this.#started) {
      this.#started = true;
      return [this.#frame({ task })];
    }
    const ids = { taskId: task.id, contextId: task.contextId };
    const { event } = stored;
    const frames: Frame[] = [];
    if (event.type === 'turn_end' && task.status.state === 'TASK_STATE_COMPLETED' && task.artifacts?.[0])
      frames.push(this.#frame({ artifactUpdate: { ...ids, artifact: task.artifacts[0], lastChunk: true } }));
    frames.push(
      this.#frame({ statusUpdate: { ...ids, status: task.status, metadata: { seq: stored.seq } } }),
    );
    return frames;
  }

  live(): Frame[] {
    return [];
  }

  metric(): Frame[] {
    return [];
  }

  done(): Frame[] {
    return [];
  }

  error(body: ErrorBody): Frame[] {
    const error = new A2aError('internal', `${body.error.code}: ${body.error.message}`);
    return [{ event: 'error', data: this.#binding.error(error) }];
  }

  /** Takes an event of the turn in, up to its end: what follows is another turn's. */
  #see(stored: StoredEvent): void {
    this.#events.push(stored);
    const { event } = stored;
    if (event.type === 'turn_end' && event.payload.turn === this.#turn) this.#over = true;
  }

  #frame(response: A2aStreamResponse): Frame {
    return { data: this.#binding.data(response) };
  }
}
