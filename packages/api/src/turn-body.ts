import { budgetSchema, toolExecutionSchema, turnLimitsSchema } from '@agentstep/protocol';
import * as z from 'zod';

/** What starts a turn: the user's message and, optionally, the turn's limits and the session's budget. */
export const turnBodySchema = z
  .object({
    message: z.string().min(1, 'must not be empty'),
    maxSteps: turnLimitsSchema.shape.maxSteps.optional(),
    budget: budgetSchema.optional(),
    toolExecution: toolExecutionSchema.optional(),
  })
  .strict();

/** A validated turn body. */
export type TurnBody = z.infer<typeof turnBodySchema>;
