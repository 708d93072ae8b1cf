import type { SessionsList } from '@agentstep/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { formatUsd } from '../common/format-usd.js';
import { usePages } from '../common/use-pages.js';
import { addTotals } from './add-totals.js';
import { filterDescription, NO_FILTER, type SessionFilter, sessionsQueryOf } from './session-filter.js';
import { SessionFilters } from './session-filters.js';
import { formatTokens, SessionRows } from './session-rows.js';

/** How long typing pauses before the search runs: one request per word or so, not per key. */
const SEARCH_PAUSE_MS = 300;

/**
 * The tenant's sessions, newest first, a page at a time: found by title or id, status and creation
 * date, each with its tokens and cost and the list's totals under it. Nothing is said about an
 * empty list before its first page has arrived.
 */
export function SessionTable() {
  const client = useClient();
  const [filter, setFilter] = useState<SessionFilter>(NO_FILTER);
  const [applied, setApplied] = useState<SessionFilter>(NO_FILTER);
  const body = useRef<HTMLTableSectionElement>(null);
  // A status or date applies at once, the text once typing pauses (or on Enter).
  useEffect(() => {
    if (filter === applied) return;
    const timer = setTimeout(() => setApplied(filter), filter.text === applied.text ? 0 : SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [filter]);
  // Each "row" read is a whole page, so its totals come with it; none has arrived while it loads.
  const {
    rows: pages,
    next,
    more,
    error,
  } = usePages<SessionsList>(
    (after) =>
      client
        .listSessions({ ...sessionsQueryOf(applied), ...(after === undefined ? {} : { after }) })
        .then((page) => ({ rows: [page], next: page.next })),
    [applied],
  );
  const sessions = pages.flatMap((page) => page.sessions);
  const described = filterDescription(applied);
  return (
    <section aria-label="Sessions">
      <SessionFilters
        filter={filter}
        onChange={setFilter}
        onSubmit={() => setApplied(filter)}
        onLeave={() => body.current?.querySelector('tr')?.focus()}
      />
      <ErrorNote error={error} />
      {sessions.length > 0 && <SessionRows sessions={sessions} bodyRef={body} />}
      {pages.length > 0 && sessions.length === 0 && (
        <p class="status">
          {described === ''
            ? 'No sessions yet: start one above with its first message.'
            : `No session matches ${described}. Change or clear the filters to see more.`}
          {described !== '' && (
            <>
              {' '}
              <button
                type="button"
                onClick={() => {
                  setFilter(NO_FILTER);
                  setApplied(NO_FILTER);
                }}
              >
                Clear filters
              </button>
            </>
          )}
        </p>
      )}
      {sessions.length > 0 && <ListTotals pages={pages} more={next !== null} />}
      {next !== null && (
        <button type="button" onClick={more}>
          More sessions
        </button>
      )}
    </section>
  );
}

/** What the listed sessions add up to: how many, their tokens and (when each is known) their cost. */
function ListTotals({ pages, more }: { pages: readonly SessionsList[]; more: boolean }) {
  const totals = addTotals(pages);
  const count = `${totals.sessions} session${totals.sessions === 1 ? '' : 's'} listed${more ? ' (more below)' : ''}`;
  const tokens = `${formatTokens(totals.input)} tokens in / ${formatTokens(totals.output)} out`;
  const cost = totals.costUsd === undefined ? 'cost unknown' : formatUsd(totals.costUsd);
  return <p class="status list-totals">{`${count} · ${tokens} · ${cost}`}</p>;
}
