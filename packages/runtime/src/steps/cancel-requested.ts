import type { EventLog, SessionHolder } from '../event-log/event-log.js';

/** Whether `turn` holds its session and was asked to stop. */
export function isCancelled(holder: SessionHolder | undefined, turn: string): boolean {
  return holder?.turn === turn && holder.cancelRequested;
}

/** Whether `turn` of `session` was asked to stop: read from the session's head. */
export async function cancelRequested(log: EventLog, session: string, turn: string): Promise<boolean> {
  return isCancelled(await log.holder(session), turn);
}
