import type { SessionListItem, StoredEvent } from '@agentstep/protocol';
import type { DirectoryEntry } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { isoTime } from './iso-time.js';
import { sessionSummary } from './session-summary.js';

/**
 * A session as `GET /sessions` lists it (and the MCP tool `list_sessions`): its summary, when it
 * was created and when its newest event was logged. `stored` is the id its log is stored under;
 * `events` its log when the caller has read it already.
 */
export async function sessionListItem(
  entry: DirectoryEntry,
  stored: string,
  deps: Pick<ApiDeps, 'log' | 'usage' | 'queue'>,
  read?: readonly StoredEvent[],
): Promise<SessionListItem> {
  const events = read ?? (await deps.log.read(stored));
  const summary = await sessionSummary({ id: entry.id, stored, events }, deps);
  return { ...summary, createdAt: isoTime(entry.createdAt), lastActivity: lastActivity(events) };
}

function lastActivity(events: readonly StoredEvent[]): string | null {
  const last = events.at(-1);
  return last === undefined ? null : isoTime(last.event.timestamp * 1000);
}
