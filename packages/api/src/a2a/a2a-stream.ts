import type { Context } from 'hono';
import type { ApiDeps } from '../api-deps.js';
import { chatTurnEnd } from '../chat-turn-end.js';
import { followLog } from '../follow-log.js';
import { tenantView } from '../session-access.js';
import { A2aError } from './a2a-error.js';
import { type A2aBinding, A2aFormat } from './a2a-format.js';
import { a2aTask, TERMINAL_STATES } from './a2a-task.js';
import type { A2aTasks } from './a2a-tasks.js';

/**
 * Streams task `id` (a turn) as A2A events in `binding`'s form, from its start (`from: 'start'`: a
 * message that just started it) or from where it stands (`'now'`: a subscription, or a message
 * that just answered it): the task first, then its updates, until it ends or waits for a person.
 * Subscribing to a task that has ended is refused: `GetTask` reads it.
 */
export async function streamA2aTask(
  c: Context,
  deps: ApiDeps,
  tasks: A2aTasks,
  id: string,
  from: 'start' | 'now',
  binding: A2aBinding,
): Promise<Response> {
  // Read before the log: a change in between wakes the stream at once.
  const seen = deps.changes?.version(tasks.storedOf(id));
  const read = await tasks.read(id);
  const { state } = a2aTask(read).status;
  if (from === 'now' && TERMINAL_STATES.has(state))
    throw new A2aError('unsupportedOperation', `Task ${id} has ended (${state}): GetTask reads it.`);
  const first = read.events[0]?.seq ?? 1;
  const after = from === 'start' ? first - 1 : (read.events.at(-1)?.seq ?? first) - 1;
  const ended = chatTurnEnd(read.turn);
  ended(read.events.filter(({ seq }) => seq <= after));
  return followLog(c, deps, {
    session: read.stored,
    backlog: [...read.events],
    after,
    seen,
    ended,
    end: ended(read.events.filter(({ seq }) => seq > after)),
    present: tenantView({ tenant: '', session: read.session, stored: read.stored }),
    format: new A2aFormat(read, binding),
  });
}
