import type { SessionListItem, SessionSummary, TurnEndStatus } from '@agentstep/protocol';
import type { DirectoryEntry } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { sessionListItem } from './session-list-item.js';
import { sessionState } from './session-state.js';
import { sessionTitle } from './session-title.js';

/** What `GET /sessions` narrows its list to; a field left out lets every session through. */
export interface SessionFilter {
  /** Text found, ignoring case, in the session's id or title. */
  q?: string | undefined;
  status?: SessionSummary['status'] | undefined;
  /** How the last turn that ended ended. */
  lastTurn?: TurnEndStatus | undefined;
  /** Created at or after this instant (ms since the epoch). */
  createdAfter?: number | undefined;
  /** Created before this instant (ms since the epoch). */
  createdBefore?: number | undefined;
}

/** Logs read at once while a filter looks for matches: a store's latency is paid per round, not per session. */
const READ_AT_ONCE = 25;

/**
 * The first `limit` sessions of `entries`, in their order, that `filter` lets through, as
 * `GET /sessions` lists them, and `next`: the last one's id when sessions are left to look at,
 * else `null`. It reads no log of a session created outside the dates, and builds no summary
 * (usage, queue) of one whose id and title miss the text.
 */
export async function matchingSessions(
  entries: readonly DirectoryEntry[],
  filter: SessionFilter,
  limit: number,
  storedOf: (id: string) => string,
  deps: Pick<ApiDeps, 'log' | 'usage' | 'queue'>,
): Promise<{ sessions: SessionListItem[]; next: string | null }> {
  const logFilter = { q: filter.q?.toLowerCase() ?? '', lastTurn: filter.lastTurn };
  const created = entries.filter((entry) => createdWithin(entry, filter));
  // Unfiltered, every session read is listed: read no more than the page needs.
  const narrowed = logFilter.q !== '' || filter.status !== undefined || filter.lastTurn !== undefined;
  const found: SessionListItem[] = [];
  let from = 0;
  while (found.length < limit && from < created.length) {
    const size = narrowed ? READ_AT_ONCE : Math.min(READ_AT_ONCE, limit - found.length);
    const round = created.slice(from, from + size);
    from += round.length;
    const items = await Promise.all(round.map((entry) => matchingItem(entry, logFilter, storedOf, deps)));
    for (const item of items) {
      const statusMatches = filter.status === undefined || item?.status === filter.status;
      if (item !== undefined && statusMatches && found.length < limit) found.push(item);
    }
  }
  const last = found.at(-1)?.session;
  const more = found.length === limit && created.at(-1)?.id !== last;
  return { sessions: found, next: more ? (last ?? null) : null };
}

/**
 * The session's list item, unless what its log alone shows misses `filter`: its id and title the
 * (lower-case) text, how its last turn ended `lastTurn`.
 */
async function matchingItem(
  entry: DirectoryEntry,
  filter: { q: string; lastTurn?: TurnEndStatus | undefined },
  storedOf: (id: string) => string,
  deps: Pick<ApiDeps, 'log' | 'usage' | 'queue'>,
): Promise<SessionListItem | undefined> {
  const stored = storedOf(entry.id);
  const events = await deps.log.read(stored);
  const { q, lastTurn } = filter;
  if (q !== '' && !entry.id.toLowerCase().includes(q)) {
    if (!(sessionTitle(events)?.toLowerCase().includes(q) ?? false)) return undefined;
  }
  // How the last turn ended does not depend on where a fork was cut; its status does, so it waits.
  if (lastTurn !== undefined && sessionState(events).lastEnd?.payload.status !== lastTurn) return undefined;
  return sessionListItem(entry, stored, deps, events);
}

function createdWithin({ createdAt }: DirectoryEntry, filter: SessionFilter): boolean {
  return (
    (filter.createdAfter === undefined || createdAt >= filter.createdAfter) &&
    (filter.createdBefore === undefined || createdAt < filter.createdBefore)
  );
}
