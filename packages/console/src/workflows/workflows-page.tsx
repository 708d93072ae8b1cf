import { useClient } from '../client-context.js';
import { ErrorNote } from '../common/error-note.js';
import { usePages } from '../common/use-pages.js';
import { workflowHref } from '../hash-route.js';

/** The tenant's workflow runs, newest first, a page at a time. */
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
      <table class="list">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Workflow</th>
            <th scope="col">Status</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.run}>
              <td data-label="Run">
                <a href={workflowHref(row.run)}>{row.run}</a>
              </td>
              <td data-label="Workflow">{row.workflow}</td>
              <td data-label="Status">{row.status}</td>
              <td data-label="Started">{new Date(row.startedAt).toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {next !== null && (
        <button type="button" onClick={more}>
          More runs
        </button>
      )}
    </div>
  );
}
