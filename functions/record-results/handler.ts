import { modelStepOutputSchema } from '@agentstep/protocol';
import { type Clock, type EventLog, type OutcomeStore, recordResults } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** RecordResults: the batch's single result event, and where the loop goes next. */
export const createHandler = (deps: { log: EventLog; outcomes: OutcomeStore; clock: Clock } & HandlerDeps) =>
  stepHandler(modelStepOutputSchema, recordResults, deps);
