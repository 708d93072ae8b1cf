import * as z from 'zod';
import type { ApprovalRecord } from '../approvals/session-approvals.js';
import type { ToolDescription } from '../prompt/tool-description.js';

/** The body of `POST /sessions/{id}/approvals/{approvalId}`: a person's decision on a waiting call. */
export const approvalDecisionBodySchema = z
  .object({
    decision: z.enum(['approve', 'deny']),
    /** Why; a denial's reason is what the model reads. */
    reason: z.string().max(4_000).optional(),
    /** The arguments the call runs with instead of the model's (approve only). */
    args: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .refine((body) => body.decision === 'approve' || body.args === undefined, {
    message: 'only an approval can edit the arguments',
    path: ['args'],
  });

/** A decision's request body. */
export type ApprovalDecisionBody = z.infer<typeof approvalDecisionBodySchema>;

/** A call waiting for a person, as `GET /sessions/{id}/approvals` lists it (times in ISO 8601). */
export interface PendingApproval {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  batch: string;
  position: number;
  requestedAt: string;
  expiresAt: string;
}

/** `GET /sessions/{id}/approvals`: the calls waiting for a person, oldest first. */
export interface ApprovalsList {
  approvals: PendingApproval[];
}

/** The answer to a decision: which approval, and what was decided. */
export interface ApprovalDecided {
  id: string;
  decision: ApprovalDecisionBody['decision'];
}

/** A pending approval of the log in its API shape. */
export function pendingApproval(record: ApprovalRecord): PendingApproval {
  return {
    id: record.id,
    tool: record.tool,
    args: record.args,
    batch: record.batch,
    position: record.position,
    requestedAt: new Date(record.requestedAt).toISOString(),
    expiresAt: new Date(record.expiresAt).toISOString(),
  };
}

/** `GET /tools`: the agent's tools as the model sees them, each with its arguments' JSON Schema. */
export interface ToolsList {
  tools: ToolDescription[];
}
