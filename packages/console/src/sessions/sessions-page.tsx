import { NewSessionForm } from './new-session-form.js';
import { SessionTable } from './session-table.js';

/** The sessions list, newest first, with a box that starts a new one. */
export function SessionsPage() {
  return (
    <div class="sessions-page">
      <h1>Sessions</h1>
      <NewSessionForm />
      <SessionTable />
    </div>
  );
}
