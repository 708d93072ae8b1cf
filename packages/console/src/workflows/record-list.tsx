import { LinkedIds } from '../common/linked-ids.js';
import { sessionHref } from '../hash-route.js';
import type { WorkflowRecordEvent } from './use-workflow-run.js';

/**
 * A run's records as one line each, oldest first: each child run (a CONVERGE iteration shows its
 * number) links to the session whose turn it is, and an end's error links the `sessions` it names.
 */
export function RecordList({
  records,
  sessions,
}: {
  records: readonly WorkflowRecordEvent[];
  sessions: readonly string[];
}) {
  return (
    <ol class="records">
      {records.map(({ seq, payload }) => (
        <li key={seq} data-seq={seq}>
          <span class="label">{payload.kind}</span> <LinkedIds text={describe(payload)} sessions={sessions} />
          {payload.kind === 'run' && (
            <>
              {' '}
              <a href={sessionHref(payload.session)}>{payload.session}</a>
            </>
          )}
        </li>
      ))}
    </ol>
  );
}

function describe(payload: WorkflowRecordEvent['payload']): string {
  switch (payload.kind) {
    case 'start':
      return payload.spec.name;
    case 'run':
    case 'output':
      return `${payload.goal}${payload.agent ? `[${payload.agent}]` : ''} ${payload.phase}${payload.n === undefined ? '' : ` ${payload.n}`}${payload.kind === 'output' ? `: ${payload.status}` : ''}`;
    case 'goal':
      return `${payload.goal}${payload.agent ? `[${payload.agent}]` : ''}${payload.iteration === undefined ? '' : ` iteration ${payload.iteration}`}`;
    case 'verdict':
      return `${payload.goal}: ${payload.verdict}`;
    case 'correction':
      return `${payload.goal} from the ${payload.source}`;
    case 'gate':
      return `${payload.goal}: ${payload.status}${payload.by ? ` by ${payload.by}` : ''}`;
    case 'end':
      return `${payload.status}${payload.error ? ` (${payload.error})` : ''}`;
  }
}
