import { type EventLog, eventLogWith, SessionBusyError } from '@agentstep/runtime';

/**
 * The event log, except that a turn refused its session because another turn holds it
 * (`SessionBusy`) first has the store's orphaned turns closed (`closeOrphans`), then asks once
 * more: a session whose holder's process died is free at once, not when its lease expires.
 */
export function reclaimingEventLog(log: EventLog, closeOrphans: () => Promise<unknown[]>): EventLog {
  return eventLogWith(log, {
    acquireTurn: async (session, turn, options) => {
      try {
        return await log.acquireTurn(session, turn, options);
      } catch (error) {
        if (!(error instanceof SessionBusyError) || (await closeOrphans()).length === 0) throw error;
        return log.acquireTurn(session, turn, options);
      }
    },
  });
}
