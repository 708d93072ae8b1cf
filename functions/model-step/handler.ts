import { loopStateSchema } from '@agentstep/protocol';
import { type ModelStepDeps, modelStep } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** ModelStep: context from the log, one model step, its events appended. */
export const createHandler = (deps: ModelStepDeps & HandlerDeps) =>
  stepHandler(loopStateSchema, modelStep, deps);
