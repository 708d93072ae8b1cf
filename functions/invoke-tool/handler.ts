import { invokeToolInputSchema } from '@agentstep/protocol';
import { type EventLog, invokeTool, type OutcomeStore, type Toolset } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** InvokeTool: runs one call of a batch with the tools this function hosts, stores its outcome. */
export const createHandler = (
  deps: { log: EventLog; outcomes: OutcomeStore; toolset: Toolset } & HandlerDeps,
) => stepHandler(invokeToolInputSchema, invokeTool, deps);
