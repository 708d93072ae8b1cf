import type { BlockKind } from './markers.js';
import type { ParsedEvent } from './parsed-event.js';

/**
 * Where the scanner reports what it found, in order. Event mode and token mode differ only in
 * their sink: what to emit, when, and how to trim.
 */
export interface EventSink {
  /** Text outside any block. */
  prose(text: string): void;
  /** A block opener was seen; it may still turn out unclosed (A10). */
  opened(kind: BlockKind): void;
  /** Text inside an open `<think>` block, as it arrives. */
  thinkDelta(text: string): void;
  /** A block closed; `content` is everything between its markers. */
  closed(kind: BlockKind, content: string): void;
  /** The model wrote `<end>` (A9). */
  end(): void;
  /** The stream ended without `<end>` or `</execute>`. */
  finish(): void;
  /** The events produced since the last call. */
  take(): readonly ParsedEvent[];
}

/** A trimmed prose fragment that is only code-fence markers, like "```json" or "```\n```" (A5). */
export const FENCE_ONLY = /^```[\w+.-]*(?:\s+```[\w+.-]*)*$/;
