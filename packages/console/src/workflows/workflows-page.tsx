import type { WorkflowRunListItem, WorkflowRunsList } from '@agentstep/client';
import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { type Column, ListTable } from '../common/list-table.js';
import { usePages } from '../common/use-pages.js';
import { workflowHref } from '../hash-route.js';
import { StartWorkflowForm } from './start-workflow-form.js';

/** The columns of the workflow runs list. */
const COLUMNS: readonly Column<WorkflowRunListItem>[] = [
  { label: 'Run', cell: (row) => <a href={workflowHref(row.run)}>{row.run}</a> },
  { label: 'Workflow', cell: (row) => row.workflow },
  { label: 'Status', cell: (row) => row.status },
  { label: 'Started', cell: (row) => new Date(row.startedAt).toLocaleString() },
];

/**
 * The tenant's workflow runs, newest first, a page at a time, and a form to start one; once the
 * first page has come, an empty list says how to start a run.
 */
export function WorkflowsPage() {
  const client = useClient();
  // Each "row" read is a whole page: none has arrived while the first one loads.
  const {
    rows: pages,
    next,
    more,
    error,
  } = usePages<WorkflowRunsList>(
    (after) =>
      client
        .listWorkflows(after === undefined ? {} : { after })
        .then((page) => ({ rows: [page], next: page.next })),
    [],
  );
  const runs = pages.flatMap((page) => page.runs);
  return (
    <div class="workflows-page">
      <h1>Workflow runs</h1>
      <ErrorNote error={error} />
      {runs.length > 0 && <ListTable columns={COLUMNS} rows={runs} rowKey={(row) => row.run} />}
      {pages.length > 0 && runs.length === 0 && (
        <p class="status">No workflow runs yet: write or upload an Agentfile below to start one.</p>
      )}
      {next !== null && (
        <button type="button" onClick={more}>
          More runs
        </button>
      )}
      <StartWorkflowForm />
    </div>
  );
}
