import { A2aError } from './a2a-error.js';
import { a2aTask } from './a2a-task.js';
import type { A2aTasks } from './a2a-tasks.js';
import type { A2aTask, ListTasksRequest } from './a2a-wire.js';

/** How many of the tenant's newest sessions a listing without a context reads. */
export const LISTED_SESSIONS = 100;

const DEFAULT_PAGE_SIZE = 50;

/** `ListTasks`' answer. */
export interface ListTasksResponse {
  tasks: A2aTask[];
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

/**
 * The tenant's tasks, newest status first: those of `contextId` (a session of the tenant's), or of
 * its {@link LISTED_SESSIONS} newest sessions; filtered by state and by status time, a page at a
 * time (`pageToken`: the previous page's `nextPageToken`, empty on the last page). Artifacts are
 * left out unless asked for.
 */
export async function listA2aTasks(tasks: A2aTasks, request: ListTasksRequest): Promise<ListTasksResponse> {
  const start = request.pageToken ? Number(request.pageToken) : 0;
  if (!Number.isSafeInteger(start) || start < 0)
    throw new A2aError(
      'invalidParams',
      `Invalid params for ListTasks: pageToken "${request.pageToken}" is not one this server gave.`,
    );
  const sessions = request.contextId ? [request.contextId] : await tasks.sessions(LISTED_SESSIONS);
  const view = { historyLength: request.historyLength, includeArtifacts: request.includeArtifacts === true };
  const after =
    request.statusTimestampAfter === undefined ? undefined : Date.parse(request.statusTimestampAfter);
  const all = (await Promise.all(sessions.map((session) => tasks.ofSession(session))))
    .flat()
    .map((turn) => a2aTask(turn, view))
    .filter(({ status }) => request.status === undefined || status.state === request.status)
    .filter(({ status }) => after === undefined || Date.parse(status.timestamp ?? '') > after)
    .sort((a, b) => (b.status.timestamp ?? '').localeCompare(a.status.timestamp ?? ''));
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
  const next = start + pageSize;
  return {
    tasks: all.slice(start, next),
    nextPageToken: next < all.length ? String(next) : '',
    pageSize,
    totalSize: all.length,
  };
}
