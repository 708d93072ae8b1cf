import {
  type ApprovalsList,
  approvalDecisionBodySchema,
  pendingApproval,
  pendingApprovals,
  type ToolsList,
} from '@agentstep/protocol';
import { decideApproval } from '@agentstep/runtime';
import type { Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { readBody } from './read-body.js';
import { refusalOf } from './refusal-of.js';
import { existingLog, tenantOf } from './session-access.js';

/**
 * `GET /sessions/{id}/approvals` (the calls waiting for a person, oldest first),
 * `POST /sessions/{id}/approvals/{approvalId}` (approve, with edited arguments if need be, or deny)
 * and `GET /tools` (the tools with their argument schemas, which edited arguments must pass).
 * A decision is recorded as made by the caller's tenant; the call's task is woken at once.
 */
export function addApprovalRoutes(app: Hono, deps: ApiDeps): void {
  app.get('/tools', (c) => {
    tenantOf(c);
    const list: ToolsList = { tools: [...deps.toolset.descriptions] };
    return c.json(list);
  });
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
