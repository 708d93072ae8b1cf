import type { StoredEvent } from '../events/stored-event.js';
import { DEFAULT_MAX_RESULT_BYTES } from './cap-content.js';
import type { ModelMessage } from './model-message.js';
import { renderTurn } from './render-turn.js';

/** Options of {@link buildMessages}. */
export interface BuildMessagesOptions {
  /** Cap on each result's content in the context (B6). @default 16 KiB */
  maxResultBytes?: number;
  /** Keep only the latest turns (D4). @default every turn */
  maxTurns?: number;
  /** Drop the oldest whole turns until the messages fit in this many characters (D4). @default no limit */
  maxChars?: number;
}

/**
 * Rebuilds the model's messages from a session's log (D1–D4), given in `seq` order. Windows cut
 * only between whole turns and always keep the latest one; messages of the same role in a row are
 * joined, so roles alternate as providers require. The oldest kept history comes first, so a
 * provider's prompt cache can reuse it from step to step.
 */
export function buildMessages(
  events: readonly StoredEvent[],
  options: BuildMessagesOptions = {},
): ModelMessage[] {
  const maxResultBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const turns = splitTurns(events).map((turn) => renderTurn(turn, maxResultBytes));
  return joinSameRole(windowTurns(turns, options).flat());
}

/** Splits the log into turns: a `user` event and everything up to the next one (D4). */
function splitTurns(events: readonly StoredEvent[]): StoredEvent[][] {
  const turns: StoredEvent[][] = [];
  for (const stored of events) {
    const current = turns.at(-1);
    if (stored.event.type === 'user' || current === undefined) turns.push([stored]);
    else current.push(stored);
  }
  return turns;
}

function windowTurns(turns: ModelMessage[][], options: BuildMessagesOptions): ModelMessage[][] {
  let start = options.maxTurns === undefined ? 0 : Math.max(0, turns.length - Math.max(1, options.maxTurns));
  if (options.maxChars !== undefined) {
    const sizes = turns.map((turn) => turn.reduce((sum, message) => sum + message.content.length, 0));
    let total = sizes.slice(start).reduce((sum, size) => sum + size, 0);
    while (start < turns.length - 1 && total > options.maxChars) {
      total -= sizes[start] ?? 0;
      start++;
    }
  }
  return turns.slice(start);
}

function joinSameRole(messages: ModelMessage[]): ModelMessage[] {
  const joined: ModelMessage[] = [];
  for (const message of messages) {
    const previous = joined.at(-1);
    if (previous?.role === message.role) previous.content = `${previous.content}\n\n${message.content}`;
    else joined.push({ ...message });
  }
  return joined;
}
