import { batchEvents } from './batch-events.js';
import { type EventSink, FENCE_ONLY } from './event-sink.js';
import type { BlockKind } from './markers.js';
import type { ParsedEvent } from './parsed-event.js';

/**
 * Event mode (A3, A4): consecutive prose becomes one trimmed `respond`, emitted before the next
 * block's events; a blank `think` or prose fragment emits nothing.
 */
export class EventModeSink implements EventSink {
  #events: ParsedEvent[] = [];
  #prose: string[] = [];
  #sawBlock = false;

  prose(text: string): void {
    this.#prose.push(text);
  }

  opened(): void {}

  thinkDelta(): void {}

  closed(kind: BlockKind, content: string): void {
    this.#sawBlock = true;
    // A8: a model-written <results> block vanishes; the prose around it stays one fragment.
    if (kind === 'results') return;
    this.#flushProse(true);
    if (kind === 'execute') {
      this.#events.push(...batchEvents(content));
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

  take(): ParsedEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }

  #flushProse(nextToBlock: boolean): void {
    const text = this.#prose.join('').trim();
    this.#prose = [];
    if (text === '' || (nextToBlock && FENCE_ONLY.test(text))) return;
    this.#events.push({ type: 'respond', content: text });
  }
}
