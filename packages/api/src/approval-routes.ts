import {
  type ApprovalsList,
  approvalDecisionBodySchema,
  pendingApproval,
  pendingApprovals,
} from '@agentstep/protocol';
import { decideApproval } from '@agentstep/runtime';
import type { Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { readBody } from './read-body.js';
import { refusalOf } from './refusal-of.js';
import { existingLog } from './session-access.js';

/**
 * `GET /sessions/{id}/approvals` (the calls waiting for a person, oldest first) and
 * `POST /sessions/{id}/approvals/{approvalId}` (approve, with edited arguments if need be, or deny).
 * A decision is recorded as made by the caller's tenant; the call's task is woken at once.
 */
export function addApprovalRoutes(app: Hono, deps: ApiDeps): void {
  app.get('/sessions/:id/approvals', async (c) => {
    const { events } = await existingLog(c, deps);
    const list: ApprovalsList = { approvals: pendingApprovals(events).map(pendingApproval) };
    return c.json(list);
  });
  app.post('/sessions/:id/approvals/:approvalId', async (c) => {
    const body = await readBody(c, approvalDecisionBodySchema);
    const { tenant, session, stored, events } = await existingLog(c, deps);
    const approval = c.req.param('approvalId');
    try {
      return c.json(await decideApproval({ session: stored, approval, by: tenant, body, events }, deps));
    } catch (error) {
      throw refusalOf(error, session);
    }
  });
}
