import { recordToolFailureInputSchema } from '@agentstep/protocol';
import { type EventLog, type OutcomeStore, recordToolFailure } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** RecordToolFailure: a call whose tool function failed outright gets a failure outcome. */
export const createHandler = (deps: { log: EventLog; outcomes: OutcomeStore } & HandlerDeps) =>
  stepHandler(recordToolFailureInputSchema, recordToolFailure, deps);
