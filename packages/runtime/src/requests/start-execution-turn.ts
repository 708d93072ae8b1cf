import { fieldProblems, type LoopState, startTurnInputSchema, turnRequestSchema } from '@agentstep/protocol';
import type * as z from 'zod';
import { InvalidTurnRequestError } from '../errors.js';
import { startTurn } from '../steps/start-turn.js';
import { type DuplicateRequest, type RequestTurnDeps, requestTurn } from './request-turn.js';

/** StartTurn's payload: the execution's input, and the execution's name. */
export interface ExecutionTurnInput {
  input: unknown;
  execution: string;
}

/**
 * StartTurn for any execution: an input naming its `turn` is a turn already submitted (the API, a
 * continued execution); any other is a turn request from an AWS service (`turnRequestSchema`),
 * checked field by field: a bad one throws InvalidTurnRequest saying which field and why.
 */
export async function startExecutionTurn(
  { input, execution }: ExecutionTurnInput,
  deps: RequestTurnDeps,
): Promise<LoopState | DuplicateRequest> {
  if (typeof input === 'object' && input !== null && 'turn' in input) {
    return startTurn(checked(startTurnInputSchema, input), deps);
  }
  return requestTurn({ request: checked(turnRequestSchema, input), execution }, deps);
}

function checked<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = fieldProblems(parsed.error, 'not a field of a turn request').map(
    ({ path, message }) => `${path || 'input'}: ${message}`,
  );
  throw new InvalidTurnRequestError(`The execution input is not a turn request: ${problems.join('; ')}.`);
}
