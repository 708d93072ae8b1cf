import type { StoredEvent } from '@agentstep/protocol';
import type { Context } from 'hono';
import { AiSdkFormat, type HeldParts } from './ai-sdk-format.js';
import type { ApiDeps } from './api-deps.js';
import { chatTurnEnd } from './chat-turn-end.js';
import { followLog } from './follow-log.js';
import { type AddressedSession, tenantView } from './session-access.js';

/** One turn to stream as its assistant message. */
export interface TurnStream {
  addressed: AddressedSession;
  turn: string;
  /** The log from the turn's `user` event on, read after the log's version `seen` was taken. */
  events: StoredEvent[];
  seen: number | undefined;
  /** The client holds the turn's message up to this seq: only what follows is sent. */
  after: number;
  /** What the client holds of the message besides: not sent again. @default nothing */
  held?: HeldParts;
  /** Called when the client goes away before the stream is over. */
  onAbort: () => void;
  /** Called once the stream is over, whichever way it ended. */
  onClose: () => void;
}

/**
 * Answers with the AI SDK's UI message stream of one turn as one assistant message (id: the turn),
 * from where the client stands to the turn's end, or until a call of the turn waits for a person.
 */
export function followTurn(c: Context, deps: ApiDeps, stream: TurnStream): Response {
  const { addressed, turn, events, seen, after, held, onAbort, onClose } = stream;
  const ended = chatTurnEnd(turn);
  // The watch moves on to where the client stands (the format catches up in followLog).
  ended(events.filter((stored) => stored.seq <= after));
  return followLog(c, deps, {
    session: addressed.stored,
    backlog: events,
    after,
    seen,
    ended,
    end: ended(events.filter((stored) => stored.seq > after)),
    present: tenantView(addressed),
    format: new AiSdkFormat(held === undefined ? { turn } : { turn, held }),
    onAbort,
    onClose,
  });
}
