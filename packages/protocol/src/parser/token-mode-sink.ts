import { batchEvents } from './batch-events.js';
import { EventQueue } from './event-queue.js';
import { type EventSink, FENCE_ONLY } from './event-sink.js';
import { FencePrefix } from './fence-prefix.js';
import type { BlockKind } from './markers.js';
import type { ParsedEvent } from './parsed-event.js';
import { TrimmedDeltas } from './trimmed-deltas.js';

/**
 * Token mode (A2): `respond` and `think` deltas as the text arrives, trimmed like event mode so
 * that a fragment's deltas concatenate to its event-mode content. Calls, errors, `execute` and
 * `end` are the same events as in event mode.
 */
export class TokenModeSink implements EventSink {
  readonly #events = new EventQueue();
  #prose = new ProseFragment();
  #think = new TrimmedDeltas();
  #sawBlock = false;

  prose(text: string): void {
    this.#emit('respond', this.#prose.push(text));
  }

  opened(kind: BlockKind): void {
    this.#prose = new ProseFragment();
    if (kind === 'think') this.#think = new TrimmedDeltas();
  }

  thinkDelta(text: string): void {
    this.#emit('think', this.#think.push(text));
  }

  closed(kind: BlockKind, content: string): void {
    this.#sawBlock = true;
    if (kind === 'execute') this.#events.pushAll(batchEvents(content));
  }

  end(): void {
    this.finish();
    this.#events.push({ type: 'end' });
  }

  finish(): void {
    this.#emit('respond', this.#prose.finish(this.#sawBlock));
    this.#prose = new ProseFragment();
  }

  take(): readonly ParsedEvent[] {
    return this.#events.take();
  }

  #emit(type: 'respond' | 'think', content: string): void {
    if (content !== '') this.#events.push({ type, content });
  }
}

/** One prose fragment between blocks, held back while it could still be a lone fence marker. */
class ProseFragment {
  #held = '';
  readonly #fences = new FencePrefix();
  #decided = false;
  readonly #deltas = new TrimmedDeltas();

  push(text: string): string {
    if (this.#decided) return this.#deltas.push(text);
    this.#held += text;
    if (this.#fences.push(text)) return '';
    this.#decided = true;
    return this.#deltas.push(this.#held);
  }

  /** What is still held when the fragment ends: nothing, or a fence marker that stands alone. */
  finish(nextToBlock: boolean): string {
    if (this.#decided) return '';
    const text = this.#held.trim();
    return nextToBlock && FENCE_ONLY.test(text) ? '' : text;
  }
}
