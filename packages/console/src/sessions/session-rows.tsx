import type { SessionListItem } from '@agentstep/client';
import type { Ref, TargetedKeyboardEvent } from 'preact';
import { useState } from 'preact/hooks';
import { formatUsd } from '../common/format-usd.js';
import { type Column, ListTable } from '../common/list-table.js';
import { sessionHref } from '../hash-route.js';

/** A token count with its thousands grouped. */
export const formatTokens = (count: number) => count.toLocaleString('en');

/** An ISO 8601 time as a short local date and time: the list has seven columns to fit. */
const shortTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** The columns of the sessions list: each heading and its cell (each cell carries its label for a narrow screen). */
const COLUMNS: readonly Column<SessionListItem>[] = [
  {
    label: 'Session',
    cell: (row) => (
      // The row is the keyboard's stop (arrows move between rows, Enter opens); the link is the mouse's.
      <a href={sessionHref(row.session)} tabIndex={-1}>
        {row.title ?? row.session}
        {row.title !== null && (
          <>
            {' '}
            <br />
            <code>{row.session}</code>
          </>
        )}
      </a>
    ),
  },
  { label: 'Status', cell: (row) => <StatusCell row={row} /> },
  { label: 'Created', cell: (row) => shortTime(row.createdAt) },
  { label: 'Last activity', cell: (row) => (row.lastActivity === null ? '—' : shortTime(row.lastActivity)) },
  { label: 'Turns', cell: (row) => row.turns },
  {
    label: 'Tokens in / out',
    cell: (row) => `${formatTokens(row.usage.input)} / ${formatTokens(row.usage.output)}`,
  },
  { label: 'Cost', cell: (row) => (row.usage.costUsd === undefined ? '—' : formatUsd(row.usage.costUsd)) },
];

/**
 * The sessions as a table whose rows are one keyboard stop: Tab reaches the last row focused,
 * ArrowUp and ArrowDown (Home, End) move between rows, Enter opens the focused row's session.
 */
export function SessionRows({
  sessions,
  bodyRef,
}: {
  sessions: readonly SessionListItem[];
  bodyRef: Ref<HTMLTableSectionElement>;
}) {
  const [focused, setFocused] = useState(0);
  const stop = Math.min(focused, sessions.length - 1);
  return (
    <ListTable
      columns={COLUMNS}
      rows={sessions}
      rowKey={(row) => row.session}
      bodyRef={bodyRef}
      rowProps={(row, index) => ({
        tabIndex: index === stop ? 0 : -1,
        'data-session': row.session,
        onFocus: () => setFocused(index),
        onKeyDown: (event) => moveOrOpen(event, row.session),
      })}
    />
  );
}

/**
 * A session's status, and how its last turn ended unless it was done, in one element (a card's
 * cell keeps it together). What needs a look (a call waiting for approval, a turn running, a last
 * turn that failed) is a coloured badge that keeps its word: colour is never the only sign.
 */
function StatusCell({ row }: { row: SessionListItem }) {
  const ended = row.lastTurn?.status;
  return (
    <span class="session-status">
      {row.status === 'idle' ? row.status : <span class={`state ${row.status}`}>{row.status}</span>}
      {ended !== undefined && ended !== 'done' && (
        <>
          {' · '}
          <span class={ended === 'failed' ? 'state failed' : undefined}>last turn {ended}</span>
        </>
      )}
    </span>
  );
}

/** A row's keys: the arrows, Home and End focus another row; Enter on the row itself opens its session. */
function moveOrOpen(event: TargetedKeyboardEvent<HTMLTableRowElement>, session: string): void {
  const row = event.currentTarget;
  const body = row.parentElement;
  const targets: Record<string, Element | null | undefined> = {
    ArrowDown: row.nextElementSibling,
    ArrowUp: row.previousElementSibling,
    Home: body?.firstElementChild,
    End: body?.lastElementChild,
  };
  const target = targets[event.key];
  if (target instanceof HTMLElement) {
    event.preventDefault();
    target.focus();
  } else if (event.key === 'Enter' && event.target === row) {
    event.preventDefault();
    location.hash = sessionHref(session);
  }
}
