import { ErrorNote } from '../common/error-note.js';
import { LinkedIds } from '../common/linked-ids.js';
import { GateCard } from './gate-card.js';
import { GoalOutputView } from './goal-output-view.js';
import { RecordList } from './record-list.js';
import { RunDiagram } from './run-diagram.js';
import { useWorkflowRun, type WorkflowRecordEvent } from './use-workflow-run.js';

/**
 * A workflow run live: its status, its goals as a diagram, its human gates, each goal's output and
 * every record (iterations included).
 */
export function WorkflowRunPage({ run }: { run: string }) {
  const { summary, records, error } = useWorkflowRun(run);
  const sessions = goalSessions(records);
  return (
    <div class="workflow-page">
      <h1>
        Run <code>{run}</code>
      </h1>
      <ErrorNote error={error} />
      {summary && (
        <>
          <p class="status">
            {summary.workflow}: {summary.status}
            {summary.message && (
              <>
                {' — '}
                <LinkedIds text={summary.message} sessions={sessions} />
              </>
            )}
          </p>
          <RunDiagram records={records} />
          <section aria-label="Gates">
            <h2>Gates ({summary.gates.length})</h2>
            {summary.gates.map((gate) => (
              <GateCard key={gate.gate} run={run} gate={gate} />
            ))}
          </section>
          <section aria-label="Goals">
            <h2>Goals ({summary.goals.length})</h2>
            {summary.goals.map((output, index) => (
              <GoalOutputView
                key={`${output.goal}-${output.agent ?? ''}-${index}`}
                run={run}
                output={output}
              />
            ))}
          </section>
          <section aria-label="Records">
            <h2>Records ({records.length})</h2>
            <RecordList records={records} sessions={sessions} />
          </section>
        </>
      )}
    </div>
  );
}

/** The sessions the run's goals ran in, as its records name them: what its messages may point to. */
function goalSessions(records: readonly WorkflowRecordEvent[]): string[] {
  return records.flatMap(({ payload }) => (payload.kind === 'run' ? [payload.session] : []));
}
