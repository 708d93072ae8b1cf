import { SessionPage } from './session/session-page.js';
import { SessionsPage } from './sessions/sessions-page.js';
import { useHashRoute } from './use-hash-route.js';
import { WorkflowRunPage } from './workflows/workflow-run-page.js';
import { WorkflowsPage } from './workflows/workflows-page.js';

/** The page the URL's hash names, keyed so that moving between two sessions starts afresh. */
export function RoutedPage() {
  const route = useHashRoute();
  switch (route.page) {
    case 'session':
      return <SessionPage key={route.session} session={route.session} />;
    case 'workflows':
      return <WorkflowsPage />;
    case 'workflow':
      return <WorkflowRunPage key={route.run} run={route.run} />;
    case 'sessions':
      return <SessionsPage />;
  }
}
