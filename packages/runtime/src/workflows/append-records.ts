import type { AppendResult } from '../event-log/event-log.js';
import type { AppendResultsDeps } from '../steps/append-results.js';
import type { NewRecord } from './plan.js';

/**
 * Appends workflow records to the run's log in one idempotent append under `key`, written by the
 * run itself (its log's writer is the run's id), each as a `workflow` event with its content.
 */
export function appendRecords(
  run: string,
  key: string,
  records: readonly NewRecord[],
  deps: Pick<AppendResultsDeps, 'log' | 'clock'>,
): Promise<AppendResult> {
  const timestamp = deps.clock.now() / 1000;
  return deps.log.append({
    session: run,
    turn: run,
    key,
    events: records.map(({ record: payload, content }) => ({
      event: { type: 'workflow', timestamp, payload, ...(content === undefined ? {} : { content }) },
    })),
  });
}
