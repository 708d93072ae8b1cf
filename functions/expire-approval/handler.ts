import { expireApprovalInputSchema } from '@agentstep/protocol';
import { type Clock, type EventLog, expireApproval } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** ExpireApproval: a call's wait timed out; its approval is settled as expired unless decided first. */
export const createHandler = (deps: { log: EventLog; clock: Clock } & HandlerDeps) =>
  stepHandler(expireApprovalInputSchema, expireApproval, deps);
