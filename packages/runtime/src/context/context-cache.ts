import {
  type BuildMessagesOptions,
  type CompactedView,
  estimateMessageTokens,
  type ModelMessage,
  renderMessages,
  type StoredEvent,
  summaryMessage,
} from '@agentstep/protocol';
import { RecentSessions } from './recent-sessions.js';

/** A session's view rendered through a seq: its messages, and each one's estimate. */
interface Rendered {
  /** The first seq of the view rendered: a later compaction starts another view. */
  from: number;
  through: number;
  messages: ModelMessage[];
  tokens: number[];
}

/** The messages a step sends, with their estimate (`estimateMessagesTokens`). */
export interface RenderedMessages {
  messages: ModelMessage[];
  tokens: number;
}

/**
 * The rendered messages of each session's context, kept per process and extended step by step
 * (issue 39): events never change, and a model step's log always ends where rendering is closed
 * (a batch's results, a turn's message), so the messages of the events up to it stay those of any
 * later log, the last one at most joined with what follows. A step then renders only the events
 * logged since the last, and its estimate costs one count per new message.
 */
export class ContextCache {
  readonly #sessions: RecentSessions<Rendered>;

  constructor(options: { maxSessions?: number } = {}) {
    this.#sessions = new RecentSessions(options.maxSessions);
  }

  /**
   * `buildMessages` of the log `view` comes from, and its estimate: the summary in force first, then
   * the view's events, those rendered before taken as they were.
   */
  messages(session: string, view: CompactedView, options: BuildMessagesOptions = {}): RenderedMessages {
    const rendered = this.#extended(session, view.events, options);
    const summary =
      view.compaction === undefined
        ? []
        : [{ role: 'user' as const, content: summaryMessage(view.compaction) }];
    const joined = joinAt(
      [...summary],
      rendered.messages,
      summary.map(estimateMessageTokens),
      rendered.tokens,
    );
    return { messages: joined.messages, tokens: joined.tokens.reduce((sum, tokens) => sum + tokens, 0) };
  }

  /** The view's events rendered: the cached rendering extended by what was logged after it. */
  #extended(session: string, events: readonly StoredEvent[], options: BuildMessagesOptions): Rendered {
    const from = events[0]?.seq ?? 0;
    const through = events.at(-1)?.seq ?? 0;
    const cached = this.#sessions.take(session);
    const reusable = cached !== undefined && cached.from === from && cached.through <= through;
    // Seqs have no gaps (C2): the events after what was rendered start at this index.
    const fresh = renderMessages(reusable ? events.slice(cached.through - from + 1) : events, options);
    const rendered: Rendered = reusable
      ? { from, through, ...joinAt(cached.messages, fresh, cached.tokens, fresh.map(estimateMessageTokens)) }
      : { from, through, messages: fresh, tokens: fresh.map(estimateMessageTokens) };
    this.#sessions.put(session, rendered);
    return rendered;
  }
}

/**
 * Two runs of messages as one, roles alternating: where the first ends and the second begins with
 * the same role, the two messages are joined with a blank line (as `buildMessages` joins them).
 */
function joinAt(
  first: readonly ModelMessage[],
  second: readonly ModelMessage[],
  firstTokens: readonly number[],
  secondTokens: readonly number[],
): { messages: ModelMessage[]; tokens: number[] } {
  const last = first.at(-1);
  const next = second[0];
  if (last === undefined || next === undefined || last.role !== next.role)
    return { messages: [...first, ...second], tokens: [...firstTokens, ...secondTokens] };
  const joined = { role: last.role, content: `${last.content}\n\n${next.content}` };
  return {
    messages: [...first.slice(0, -1), joined, ...second.slice(1)],
    tokens: [...firstTokens.slice(0, -1), estimateMessageTokens(joined), ...secondTokens.slice(1)],
  };
}
