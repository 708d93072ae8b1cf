import type { Context, Hono } from 'hono';
import { AgUiFormat } from './ag-ui-format.js';
import { agUiRunEnd } from './ag-ui-run-end.js';
import type { ApiDeps } from './api-deps.js';
import {
  type ClientDecision,
  type ClientTurn,
  decideClientApprovals,
  followedTurn,
  lastApprovalRequest,
  startClientTurn,
  turnToFollow,
} from './client-turns.js';
import { followLog } from './follow-log.js';
import { type AddressedSession, existingLog, tenantOf, tenantView } from './session-access.js';
import { storedSession } from './tenants.js';
import type { TurnFollowers } from './turn-followers.js';

/**
 * `POST /ag-ui`: AG-UI's run endpoint. The body is a `RunAgentInput` whose `threadId` is a session
 * of the caller's tenant (created on first use); its newest `user` message starts a turn named by
 * its `runId` (a retried run streams the same turn), or its `resume` entries decide the calls that
 * interrupted the previous run and the run follows the turn on from there. The answer is that
 * turn as AG-UI events ({@link AgUiFormat}) until it ends or its calls wait for a person (an
 * interrupt). A turn whose clients all left before it was over (`abortRun()`) is cancelled unless
 * one follows it again within `leaveGraceMs` (a retried run).
 */
export function addAgUiRoute(app: Hono, deps: ApiDeps, followers: TurnFollowers): void {
  app.post('/ag-ui', async (c) => {
    const tenant = tenantOf(c);
    // Loaded with the first run: AG-UI's schemas are for this route only.
    const { readRunInput } = await import('./ag-ui-input.js');
    const input = await readRunInput(c);
    const addressed = { tenant, session: input.session, stored: storedSession(tenant, input.session) };
    const { turn, after } =
      input.message === undefined
        ? await resume(c, deps, addressed, input.resume)
        : await startClientTurn(deps, addressed, {
            scope: 'ag-ui',
            clientId: input.runId,
            body: { message: input.message },
          });
    // Read before the log: a change in between wakes the stream at once.
    const seen = deps.changes?.version(addressed.stored);
    const backlog = await deps.log.read(addressed.stored);
    const ended = agUiRunEnd(after);
    const format = new AgUiFormat({ threadId: input.session, runId: input.runId });
    return followLog(c, deps, {
      session: addressed.stored,
      backlog,
      after,
      seen,
      ended,
      end: ended(backlog),
      present: tenantView(addressed),
      format,
      ...followedTurn(deps, followers, addressed, turn),
    });
  });
}

/**
 * Decides each call a resume entry answers; the run follows the running turn from the interrupt
 * that ended the previous run.
 */
async function resume(
  c: Context,
  deps: ApiDeps,
  addressed: AddressedSession,
  decisions: ClientDecision[],
): Promise<ClientTurn> {
  const { events } = await existingLog(c, deps, addressed);
  const turn = await turnToFollow(deps, addressed);
  await decideClientApprovals(deps, addressed, decisions);
  return { turn, after: lastApprovalRequest(events) };
}
