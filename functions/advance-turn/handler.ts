import { advanceTurnInputSchema } from '@agentstep/protocol';
import { advanceTurn, type ModelStepDeps } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** AdvanceTurn: the batch's single result event, then the next model step unless the loop stops. */
export const createHandler = (deps: ModelStepDeps & HandlerDeps) =>
  stepHandler(advanceTurnInputSchema, advanceTurn, deps);
