import { awaitApprovalInputSchema } from '@agentstep/protocol';
import { type AwaitApprovalDeps, awaitApproval } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/**
 * AwaitApproval: invoked on `.waitForTaskToken`, keeps the token of a call that waits for a
 * person; a settled approval fails it with ApprovalSettled so the call goes on at once.
 */
export const createHandler = (deps: AwaitApprovalDeps & HandlerDeps) =>
  stepHandler(awaitApprovalInputSchema, awaitApproval, deps);
