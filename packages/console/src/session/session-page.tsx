import { useState } from 'preact/hooks';
import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { workflowHref } from '../hash-route.js';
import { ApprovalList } from './approval-list.js';
import { CostChart } from './cost-chart.js';
import { ForkedFrom } from './forked-from.js';
import { isTurnRunning } from './is-turn-running.js';
import { MessageBox } from './message-box.js';
import { Timeline } from './timeline.js';
import type { StepMetric } from './timeline-item.js';
import { useSessionStream } from './use-session-stream.js';
import { useWorkflowOfSession } from './use-workflow-of-session.js';

/** A session live: its timeline, the calls waiting for a decision, its cost, the next message and Cancel. */
export function SessionPage({ session }: { session: string }) {
  const client = useClient();
  const { items, error: streamError, done, followAgain } = useSessionStream(session);
  const [error, setError] = useState<unknown>();
  const running = !done && isTurnRunning(items);
  const workflow = useWorkflowOfSession(session);
  const attempt = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    }
  };
  const send = (message: string) =>
    attempt(async () => {
      await client.send(session, { message });
      followAgain();
    });
  const metrics = items.filter((item): item is StepMetric => item.type === 'metric');
  const approvalEvents = items.filter((item) => item.type === 'approval').length;
  return (
    <div class="session-page">
      <div class="session-head">
        <h1>
          Session <code>{session}</code>
        </h1>
        <ForkedFrom session={session} />
        <p class="status" data-running={running}>
          {running ? 'A turn is running' : 'Idle'}
        </p>
        {workflow === undefined ? (
          <button
            type="button"
            class="danger"
            disabled={!running}
            onClick={() => attempt(() => client.cancel(session))}
          >
            Cancel turn
          </button>
        ) : (
          <p class="goal-of">
            A goal session of workflow run <a href={workflowHref(workflow)}>{workflow}</a>: the run writes it,
            this page only reads it.
          </p>
        )}
      </div>
      <ErrorNote error={error ?? streamError} />
      <div class="session-main">
        {/* Unseen, but it keeps the outline whole: the calls' h3 headings sit under an h2, as the side's do. */}
        <h2 class="visually-hidden">Timeline</h2>
        <Timeline items={items} session={session} />
      </div>
      <aside class="session-side">
        {metrics.some((metric) => metric.input + metric.output > 0) && <CostChart metrics={metrics} />}
        <ApprovalList session={session} approvalEvents={approvalEvents} />
        {workflow === undefined && <MessageBox onSend={send} disabled={running} />}
      </aside>
    </div>
  );
}
