import type { LoggedEvent, WorkflowRunSummary } from '@agentstep/client';
import { useEffect, useState } from 'preact/hooks';
import { useClient } from '../client-context.js';

/** A `workflow` record of a run's log, with its `seq`. */
export type WorkflowRecordEvent = Extract<LoggedEvent, { type: 'workflow' }>;

/** A workflow run live: its summary and every record of its log, once each. */
export interface WorkflowRun {
  /** As `GET /workflows/{run}` tells it, read again after every record. */
  summary: WorkflowRunSummary | undefined;
  /** Its records oldest first: starts, child runs (each iteration), outputs, verdicts, gates, its end. */
  records: WorkflowRecordEvent[];
  error: unknown;
}

/** Follows a workflow run's stream, reading its summary again after each record it brings. */
export function useWorkflowRun(run: string): WorkflowRun {
  const client = useClient();
  const [summary, setSummary] = useState<WorkflowRunSummary>();
  const [records, setRecords] = useState<WorkflowRecordEvent[]>([]);
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    const stop = new AbortController();
    const follow = async () => {
      setSummary(await client.workflow(run));
      for await (const item of client.streamWorkflow(run, { signal: stop.signal })) {
        if (item.type === 'done') return setSummary(await client.workflow(run));
        if ('seq' in item && item.event.type === 'workflow') {
          const record = item.event;
          setRecords((earlier) => [...earlier, record]);
          setSummary(await client.workflow(run));
        }
      }
    };
    follow().catch((failure: unknown) => {
      if (!stop.signal.aborted) setError(failure);
    });
    return () => stop.abort();
  }, [client, run]);
  return { summary, records, error };
}
