import type { EventLog } from './event-log.js';

/**
 * `log` with some of its methods replaced and the others passed through: for decorators (a log
 * that notifies on append) and for injecting faults in tests.
 */
export function eventLogWith(log: EventLog, replaced: Partial<EventLog>): EventLog {
  return {
    append: (request) => log.append(request),
    read: (session, options) => log.read(session, options),
    snapshot: (session, options) => log.snapshot(session, options),
    appended: (session, key) => log.appended(session, key),
    acquireTurn: (session, turn, options) => log.acquireTurn(session, turn, options),
    holder: (session) => log.holder(session),
    requestCancel: (session, turn) => log.requestCancel(session, turn),
    fork: (session, origin, options) => log.fork(session, origin, options),
    origin: (session) => log.origin(session),
    ...(log.heldThrough ? { heldThrough: (session, seq) => log.heldThrough?.(session, seq) } : {}),
    ...replaced,
  };
}
