import type { StoredEvent } from '@agentstep/protocol';
import { type ContextStart, carryOf, type TurnCarry } from '../event-log/context-start.js';

/** What a turn's user message chose for its steps: a model profile, and instructions (a persona). */
export type TurnUser = NonNullable<TurnCarry['user']>;

/**
 * The choices of the user message that started the turn: the log's last one, or, when the log
 * starts after it (at the context's start), the one the turn carried past the compaction.
 */
export function turnUser(
  log: readonly StoredEvent[],
  turn: string,
  start: ContextStart | undefined,
): TurnUser | undefined {
  const user = log.findLast(({ event }) => event.type === 'user')?.event;
  if (user?.type !== 'user') return carryOf(start, turn)?.user;
  return {
    ...(user.model === undefined ? {} : { model: user.model }),
    ...(user.instructions === undefined ? {} : { instructions: user.instructions }),
  };
}
