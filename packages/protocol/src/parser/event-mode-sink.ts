import { batchEvents } from './batch-events.js';
import { EventQueue } from './event-queue.js';
import { type EventSink, FENCE_ONLY } from './event-sink.js';
import type { BlockKind } from './markers.js';
import type { ParsedEvent } from './parsed-event.js';
import { TextBuffer } from './text-buffer.js';

/**
 * Event mode (A3, A4): consecutive prose becomes one trimmed `respond`, emitted before the next
 * block's events; a blank `think` or prose fragment emits nothing.
 */
export class EventModeSink implements EventSink {
  readonly #events = new EventQueue();
  readonly #prose = new TextBuffer();
  #sawBlock = false;

  prose(text: string): void {
    this.#prose.append(text);
  }

  opened(): void {}

  thinkDelta(): void {}

  closed(kind: BlockKind, content: string): void {
    this.#sawBlock = true;
    // A8: a model-written <results> block vanishes; the prose around it stays one fragment.
    if (kind === 'results') return;
    this.#flushProse(true);
    if (kind === 'execute') {
      this.#events.pushAll(batchEvents(content));
      return;
    }
    const thought = content.trim();
    if (thought !== '') this.#events.push({ type: 'think', content: thought });
  }

  end(): void {
    this.#flushProse(this.#sawBlock);
    this.#events.push({ type: 'end' });
  }

  finish(): void {
    this.#flushProse(this.#sawBlock);
  }

  take(): readonly ParsedEvent[] {
    return this.#events.take();
  }

  #flushProse(nextToBlock: boolean): void {
    const text = this.#prose.take().trim();
    if (text === '' || (nextToBlock && FENCE_ONLY.test(text))) return;
    this.#events.push({ type: 'respond', content: text });
  }
}
