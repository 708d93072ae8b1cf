import { describeTurnInputSchema } from '@agentstep/protocol';
import { describeTurn, type EventLog, type UsageLedger } from '@agentstep/runtime';
import { type HandlerDeps, stepHandler } from '@agentstep/runtime/lambda';

/** DescribeTurn: the turn's result, the execution's output, read from the log. */
export const createHandler = (deps: { log: EventLog; usage: UsageLedger } & HandlerDeps) =>
  stepHandler(describeTurnInputSchema, describeTurn, deps);
