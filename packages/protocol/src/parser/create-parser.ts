import { EventModeSink } from './event-mode-sink.js';
import type { EventSink } from './event-sink.js';
import { FinalCloserIndex } from './final-closer-index.js';
import {
  type BlockKind,
  CLOSERS,
  isPartialMarker,
  markerAt,
  OPENERS,
  partialCloserLength,
  startsPartially,
} from './markers.js';
import type { ParsedEvent, ParseMode } from './parsed-event.js';
import { TextBuffer } from './text-buffer.js';
import { TokenModeSink } from './token-mode-sink.js';

/** Options of {@link createParser} and {@link parse}. */
export interface ParserOptions {
  /** `event` (default) emits whole units; `token` emits prose and thinking as they arrive. */
  mode?: ParseMode;
}

/** An incremental parser of one model step's output. */
export interface StreamingParser {
  /** Feeds the next chunk; returns the events it completed. */
  push(chunk: string): readonly ParsedEvent[];
  /** Ends the stream; returns the remaining events. Later calls return nothing. */
  end(): readonly ParsedEvent[];
  /**
   * Where the input pushed so far ends: in prose, inside a block, inside a JSON string of an
   * `<execute>` body (where a stop sequence must not end the step, A7), or after the step ended.
   */
  position(): ParserPosition;
}

/** Where a parser's input ends; see {@link StreamingParser.position}. */
export type ParserPosition = 'prose' | BlockKind | 'execute-string' | 'done';

/** Where a model's output is, as a parser tells it, read without keeping the output. */
export interface PositionTracker {
  /** Reads the next chunk. */
  push(chunk: string): void;
  /** As {@link StreamingParser.position} for the same input. */
  position(): ParserPosition;
}

/**
 * Creates a streaming parser for the THINK → EXECUTE protocol (A1–A10). Any split of the input
 * into chunks gives the same events in event mode, and the cost is linear in the input.
 */
export function createParser(options: ParserOptions = {}): StreamingParser {
  return new ProtocolScanner(options.mode === 'token' ? new TokenModeSink() : new EventModeSink());
}

/**
 * Creates a {@link PositionTracker}: the parser's scanner with no events to make, so it keeps no
 * block's text and parses no `<execute>` body. For whoever only needs to know where the stream is
 * (stop sequences, reasoning), beside the step's own parser.
 */
export function createPositionTracker(): PositionTracker {
  const scanner = new ProtocolScanner(new PositionSink(), false);
  return {
    push: (chunk) => {
      scanner.push(chunk);
    },
    position: () => scanner.position(),
  };
}

type ScanState = 'prose' | BlockKind | 'done';
type JsonState = 'outside' | 'string' | 'escape';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LESS_THAN = 0x3c;

class ProtocolScanner implements StreamingParser {
  readonly #sink: EventSink;
  #state: ScanState = 'prose';
  /** Input held back because it may be the start of a marker split across chunks (A2). */
  #carry = '';
  /** The open block's raw content, kept whole for the A10 fallback, unless nobody reads it. */
  readonly #block: TextBuffer | undefined;
  #json: JsonState = 'outside';
  /** The closer of the open block, looked up once per block rather than once per chunk. */
  #closer = '';
  /** Set once the stream has ended: openers are then decided at once (A10). */
  #final: FinalCloserIndex | undefined;

  constructor(sink: EventSink, keepsBlocks = true) {
    this.#sink = sink;
    this.#block = keepsBlocks ? new TextBuffer() : undefined;
  }

  push(chunk: string): readonly ParsedEvent[] {
    if (this.#state !== 'done' && chunk !== '') {
      const text = this.#carry + chunk;
      this.#carry = '';
      this.#scan(text);
    }
    return this.#sink.take();
  }

  end(): readonly ParsedEvent[] {
    if (this.#state === 'done') return this.#sink.take();
    let rest = this.#carry;
    if (this.#state !== 'prose') {
      // A10: an opener still open at the end is literal text; parsing resumes right after it.
      this.#sink.prose(OPENERS[this.#state]);
      rest = (this.#block?.take() ?? '') + rest;
      this.#state = 'prose';
    }
    this.#carry = '';
    this.#final = new FinalCloserIndex(rest);
    this.#scan(rest);
    if (!this.#isDone()) this.#sink.finish();
    this.#state = 'done';
    return this.#sink.take();
  }

  position(): ParserPosition {
    if (this.#state === 'execute' && this.#json !== 'outside') return 'execute-string';
    return this.#state;
  }

  #scan(text: string): void {
    let at = 0;
    while (at < text.length) {
      const state = this.#state;
      if (state === 'done') return;
      if (state === 'prose') at = this.#scanProse(text, at);
      else if (state === 'execute') at = this.#scanExecute(text, at);
      else at = this.#scanPlainBlock(text, at, state);
    }
  }

  #isDone(): boolean {
    return this.#state === 'done';
  }

  /** Scans prose up to the next opener; returns where scanning continues. */
  #scanProse(text: string, from: number): number {
    let start = from;
    let at = from;
    for (;;) {
      const lessThan = text.indexOf('<', at);
      if (lessThan < 0) return this.#prose(text, start, text.length);
      const marker = markerAt(text, lessThan);
      if (marker === undefined) {
        if (this.#final === undefined && isPartialMarker(text, lessThan)) {
          this.#carry = text.slice(lessThan);
          return this.#prose(text, start, lessThan) + this.#carry.length;
        }
        at = lessThan + 1;
        continue;
      }
      this.#prose(text, start, lessThan);
      if (marker === 'end') {
        this.#sink.end();
        this.#state = 'done';
        return text.length;
      }
      const bodyStart = lessThan + OPENERS[marker].length;
      if (this.#final?.closes(marker, bodyStart) === false) {
        this.#sink.prose(OPENERS[marker]);
        start = at = bodyStart;
        continue;
      }
      this.#open(marker);
      return bodyStart;
    }
  }

  #prose(text: string, from: number, to: number): number {
    if (to > from) this.#sink.prose(text.slice(from, to));
    return to;
  }

  #open(kind: BlockKind): void {
    this.#state = kind;
    this.#block?.take();
    this.#json = 'outside';
    this.#closer = CLOSERS[kind];
    this.#sink.opened(kind);
  }

  /** Scans a `<think>` or `<results>` block, whose first closer ends it (A4). */
  #scanPlainBlock(text: string, from: number, kind: BlockKind): number {
    const closer = this.#closer;
    const closeAt = text.indexOf(closer, from);
    if (closeAt >= 0) {
      this.#append(text.slice(from, closeAt));
      this.#close(kind);
      return closeAt + closer.length;
    }
    const held = this.#final === undefined ? partialCloserLength(text, from, closer) : 0;
    this.#append(held === 0 ? text.slice(from) : text.slice(from, text.length - held));
    this.#carry = held === 0 ? '' : text.slice(text.length - held);
    return text.length;
  }

  /** Scans an `<execute>` body; `</execute>` inside a JSON string does not close it (A5). */
  #scanExecute(text: string, from: number): number {
    let json = this.#json;
    for (let at = from; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (json === 'string') {
        if (code === BACKSLASH) json = 'escape';
        else if (code === QUOTE) json = 'outside';
      } else if (json === 'escape') {
        json = 'string';
      } else if (code === QUOTE) {
        json = 'string';
      } else if (code === LESS_THAN) {
        if (text.startsWith(this.#closer, at)) {
          this.#append(text.slice(from, at));
          this.#close('execute');
          return at + this.#closer.length;
        }
        if (this.#final === undefined && startsPartially(text, at, this.#closer)) {
          this.#append(text.slice(from, at));
          this.#carry = text.slice(at);
          this.#json = json;
          return text.length;
        }
      }
    }
    this.#append(text.slice(from));
    this.#json = json;
    return text.length;
  }

  #append(part: string): void {
    if (part === '') return;
    this.#block?.append(part);
    if (this.#state === 'think') this.#sink.thinkDelta(part);
  }

  #close(kind: BlockKind): void {
    const content = this.#block?.take() ?? '';
    // A7: nothing after the first </execute> belongs to this step.
    this.#state = kind === 'execute' ? 'done' : 'prose';
    this.#sink.closed(kind, content);
  }
}

/** A sink that makes no events: the scanner then only tracks where the input is. */
class PositionSink implements EventSink {
  prose(): void {}
  opened(): void {}
  thinkDelta(): void {}
  closed(): void {}
  end(): void {}
  finish(): void {}
  take(): readonly ParsedEvent[] {
    return NO_EVENTS;
  }
}

const NO_EVENTS: readonly ParsedEvent[] = Object.freeze([]);
