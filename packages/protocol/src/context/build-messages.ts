import type { StoredEvent } from '../events/stored-event.js';
import { DEFAULT_MAX_RESULT_BYTES } from './cap-content.js';
import { compactedView, summaryMessage } from './compacted-view.js';
import type { ModelMessage } from './model-message.js';
import { renderTurn } from './render-turn.js';

/** Options of {@link buildMessages}. */
export interface BuildMessagesOptions {
  /** Cap on each result's content in the context (B6). @default 16 KiB */
  maxResultBytes?: number;
}

/**
 * Rebuilds the model's messages from a session's log (D1–D3), given in `seq` order: the latest
 * compaction's summary stands for the events up to its `upToSeq` (decision 0035), and the events
 * after it follow. Messages of the same role in a row are joined, so roles alternate as providers
 * require. Between two compactions each step's messages begin with the previous step's, so a
 * provider's prompt cache can reuse them (D4).
 */
export function buildMessages(
  events: readonly StoredEvent[],
  options: BuildMessagesOptions = {},
): ModelMessage[] {
  const { compaction, events: shown } = compactedView(events);
  const messages = renderMessages(shown, options);
  if (compaction === undefined) return messages;
  return joinSameRole([{ role: 'user', content: summaryMessage(compaction) }, ...messages]);
}

/**
 * The messages of `events` as they are (D1–D3), any compaction among them not applied: a part of a
 * log cut at turn boundaries or after a batch's results, such as a compaction weighs and summarizes.
 */
export function renderMessages(
  events: readonly StoredEvent[],
  options: BuildMessagesOptions = {},
): ModelMessage[] {
  const maxResultBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  return joinSameRole(splitTurns(events).flatMap((turn) => renderTurn(turn, maxResultBytes)));
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

function joinSameRole(messages: ModelMessage[]): ModelMessage[] {
  const joined: ModelMessage[] = [];
  for (const message of messages) {
    const previous = joined.at(-1);
    if (previous?.role === message.role) previous.content = `${previous.content}\n\n${message.content}`;
    else joined.push({ ...message });
  }
  return joined;
}
