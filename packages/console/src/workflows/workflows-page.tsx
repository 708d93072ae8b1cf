import type { WorkflowRunListItem } from '@agentstep/client';
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

/** The tenant's workflow runs, newest first, a page at a time, and a form to start one. */
export function WorkflowsPage() {
  const client = useClient();
  const { rows, next, more, error } = usePages(
    (after) =>
      client
        .listWorkflows(after === undefined ? {} : { after })
        .then(({ runs, next }) => ({ rows: runs, next })),
    [],
  );
  return (
    <div class="workflows-page">
      <h1>Workflow runs</h1>
      <ErrorNote error={error} />
      <ListTable columns={COLUMNS} rows={rows} rowKey={(row) => row.run} />
      {next !== null && (
        <button type="button" onClick={more}>
          More runs
        </button>
      )}
      <StartWorkflowForm />
    </div>
  );
}
