import { useState } from 'preact/hooks';
import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { formatUsd } from '../common/format-usd.js';
import { usePages } from '../common/use-pages.js';
import { sessionHref } from '../hash-route.js';

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
      <table class="list">
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Status</th>
            <th scope="col">Last activity</th>
            <th scope="col">Turns</th>
            <th scope="col">Tokens in / out</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.session}>
              <td data-label="Session">
                <a href={sessionHref(row.session)}>{row.session}</a>
              </td>
              <td data-label="Status">{row.status}</td>
              <td data-label="Last activity">
                {row.lastActivity === null ? '—' : new Date(row.lastActivity).toLocaleString()}
              </td>
              <td data-label="Turns">{row.turns}</td>
              <td data-label="Tokens in / out">
                {row.usage.input} / {row.usage.output}
              </td>
              <td data-label="Cost">
                {row.usage.costUsd === undefined ? '—' : formatUsd(row.usage.costUsd)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {next !== null && (
        <button type="button" onClick={more}>
          More sessions
        </button>
      )}
    </section>
  );
}
