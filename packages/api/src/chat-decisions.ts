import { approvalDecisionBodySchema } from '@agentstep/protocol';
import * as z from 'zod';
import { validationError } from './api-error.js';
import type { ChatMessage } from './chat-body.js';
import type { ClientDecision } from './client-turns.js';

/** A tool part the SDK's `addToolApprovalResponse` answered. */
const respondedPartSchema = z.object({
  state: z.literal('approval-responded'),
  approval: z.object({ id: z.string(), approved: z.boolean(), reason: z.string().optional() }),
});

/**
 * The decisions an assistant message makes: one per tool part in state `approval-responded`,
 * approved, or denied with the part's reason.
 */
export function chatDecisions(message: ChatMessage): ClientDecision[] {
  return message.parts.flatMap((part) => {
    const responded = respondedPartSchema.safeParse(part);
    if (!responded.success) return [];
    const { id, approved, reason } = responded.data.approval;
    const body = approvalDecisionBodySchema.safeParse(
      approved ? { decision: 'approve' } : { decision: 'deny', ...(reason === undefined ? {} : { reason }) },
    );
    if (!body.success) throw validationError(`response to approval ${id}`, body.error);
    return [{ approval: id, body: body.data }];
  });
}
