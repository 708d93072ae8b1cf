import { advanceWorkflowInputSchema } from '@agentstep/protocol';
import { type AppendResultsDeps, advanceWorkflow } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/**
 * AdvanceWorkflow: records how a workflow run's child runs ended, then plans from the run's log
 * and carries the plan out until the run waits for child runs, a person, or nothing any more.
 */
export const createHandler = (deps: AppendResultsDeps & HandlerDeps) =>
  stepHandler(advanceWorkflowInputSchema, advanceWorkflow, deps);
