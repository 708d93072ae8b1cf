import type { StoredEvent } from '@agentstep/protocol';
import type { EventLog } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';

/** A session's log for `command`; undefined, said on stderr, when the session has no events. */
export async function readSessionLog(
  command: string,
  session: string,
  log: EventLog,
  io: CliIo,
): Promise<StoredEvent[] | undefined> {
  const events = await log.read(session);
  if (events.length > 0) return events;
  io.stderr(`agentstep ${command}: session ${session} has no events in ${io.dataDir}.\n`);
  return undefined;
}
