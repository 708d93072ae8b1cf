import type { SessionsQuery } from '@agentstep/client';

/** The sessions list's status filter: a session's status, or `failed` for those whose last turn failed. */
export type StatusChoice = '' | 'running' | 'waiting' | 'idle' | 'failed';

/** What the sessions list is narrowed to, as its filters hold it; empty strings narrow nothing. */
export interface SessionFilter {
  /** Text looked for in titles and ids. */
  text: string;
  status: StatusChoice;
  /** A local date (`YYYY-MM-DD`, as a date input gives it): sessions created that day or later. */
  createdFrom: string;
}

/** The filter that lists every session. */
export const NO_FILTER: SessionFilter = { text: '', status: '', createdFrom: '' };

/**
 * The `GET /sessions` query of `filter`: `failed` asks for `lastTurn=failed`, and a date for the
 * local midnight that starts it, in UTC.
 */
export function sessionsQueryOf(filter: SessionFilter): SessionsQuery {
  const text = filter.text.trim();
  const { status, createdFrom } = filter;
  return {
    ...(text === '' ? {} : { q: text }),
    ...(status === '' ? {} : status === 'failed' ? { lastTurn: 'failed' } : { status }),
    ...(createdFrom === '' ? {} : { createdAfter: new Date(`${createdFrom}T00:00`).toISOString() }),
  };
}

/** What `filter` narrows the list to, for the sentence that says nothing matches; empty when it narrows nothing. */
export function filterDescription(filter: SessionFilter): string {
  const text = filter.text.trim();
  return [
    text === '' ? '' : `“${text}”`,
    filter.status === '' ? '' : filter.status === 'failed' ? 'whose last turn failed' : filter.status,
    filter.createdFrom === '' ? '' : `created on or after ${filter.createdFrom}`,
  ]
    .filter((part) => part !== '')
    .join(', ');
}
