import type { StoredEvent } from '@agentstep/protocol';

/** The most characters a title has, its `…` included. */
export const TITLE_LENGTH = 80;

/** How much of a message is read first: enough for a title unless it is mostly whitespace. */
const HEAD_LENGTH = 1_000;

/**
 * A session's title: its first `user` message, trimmed, each run of whitespace one space, and cut
 * at {@link TITLE_LENGTH} characters (code points: no emoji is split), the last one then `…`;
 * `null` when the log holds no message (or only whitespace).
 */
export function sessionTitle(events: readonly StoredEvent[]): string | null {
  const first = events.find(({ event }) => event.type === 'user');
  if (first?.event.type !== 'user') return null;
  const message = first.event.content;
  // A pasted document is read only as far as its title needs: lists title every session.
  const head = Array.from(collapsed(message.slice(0, HEAD_LENGTH)));
  const points =
    message.length <= HEAD_LENGTH || head.length > TITLE_LENGTH ? head : Array.from(collapsed(message));
  if (points.length === 0) return null;
  if (points.length <= TITLE_LENGTH) return points.join('');
  return `${points
    .slice(0, TITLE_LENGTH - 1)
    .join('')
    .trimEnd()}…`;
}

function collapsed(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}
