import type { WorkflowRunSummary } from '@agentstep/client';
import { useEffect, useState } from 'preact/hooks';
import { useClient } from '../client-context.js';

/** A workflow run as `GET /workflows/{run}` tells it, read again after every record its stream brings. */
export function useWorkflowRun(run: string): { summary: WorkflowRunSummary | undefined; error: unknown } {
  const client = useClient();
  const [summary, setSummary] = useState<WorkflowRunSummary>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    const stop = new AbortController();
    const follow = async () => {
      setSummary(await client.workflow(run));
      for await (const item of client.streamWorkflow(run, { signal: stop.signal })) {
        if (item.type === 'done' || item.type === 'workflow') setSummary(await client.workflow(run));
        if (item.type === 'done') return;
      }
    };
    follow().catch((failure: unknown) => {
      if (!stop.signal.aborted) setError(failure);
    });
    return () => stop.abort();
  }, [client, run]);
  return { summary, error };
}
