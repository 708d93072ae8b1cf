import type { SessionListItem } from '@agentstep/client';
import { useState } from 'preact/hooks';
import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { formatUsd } from '../common/format-usd.js';
import { type Column, ListTable } from '../common/list-table.js';
import { usePages } from '../common/use-pages.js';
import { sessionHref } from '../hash-route.js';

/** The columns of the sessions list. */
const COLUMNS: readonly Column<SessionListItem>[] = [
  { label: 'Session', cell: (row) => <a href={sessionHref(row.session)}>{row.session}</a> },
  { label: 'Status', cell: (row) => row.status },
  {
    label: 'Last activity',
    cell: (row) => (row.lastActivity === null ? '—' : new Date(row.lastActivity).toLocaleString()),
  },
  { label: 'Turns', cell: (row) => row.turns },
  { label: 'Tokens in / out', cell: (row) => `${row.usage.input} / ${row.usage.output}` },
  { label: 'Cost', cell: (row) => (row.usage.costUsd === undefined ? '—' : formatUsd(row.usage.costUsd)) },
];

/** The `status` filter of `GET /sessions`; empty for every session. */
type StatusFilter = '' | 'idle' | 'running' | 'waiting';

/** The tenant's sessions, newest first, a page at a time, filtered by status. */
export function SessionTable() {
  const client = useClient();
  const [status, setStatus] = useState<StatusFilter>('');
  const { rows, next, more, error } = usePages(
    (after) =>
      client
        .listSessions({ ...(status === '' ? {} : { status }), ...(after === undefined ? {} : { after }) })
        .then(({ sessions, next }) => ({ rows: sessions, next })),
    [status],
  );
  return (
    <section aria-label="Sessions">
      <label>
        Status{' '}
        <select value={status} onChange={(event) => setStatus(event.currentTarget.value as StatusFilter)}>
          <option value="">any</option>
          <option value="running">running</option>
          <option value="waiting">waiting</option>
          <option value="idle">idle</option>
        </select>
      </label>
      <ErrorNote error={error} />
      <ListTable columns={COLUMNS} rows={rows} rowKey={(row) => row.session} />
      {next !== null && (
        <button type="button" onClick={more}>
          More sessions
        </button>
      )}
    </section>
  );
}
