import { type EventLog, isCancelled } from '../event-log/event-log.js';

/** Whether `turn` of `session` was asked to stop: read from the session's head. */
export async function cancelRequested(log: EventLog, session: string, turn: string): Promise<boolean> {
  return isCancelled(await log.holder(session), turn);
}
