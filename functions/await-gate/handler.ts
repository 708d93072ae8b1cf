import { awaitGateInputSchema } from '@agentstep/protocol';
import { type AwaitGateDeps, awaitGate } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/**
 * AwaitGate: invoked on `.waitForTaskToken`, keeps the token of a workflow run waiting at a human
 * gate; a gate answered already fails it with GateSettled so the run goes on at once.
 */
export const createHandler = (deps: AwaitGateDeps & HandlerDeps) =>
  stepHandler(awaitGateInputSchema, awaitGate, deps);
