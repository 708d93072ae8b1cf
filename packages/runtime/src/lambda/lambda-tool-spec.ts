import * as z from 'zod';

/** A Lambda function offered to the model as a tool. */
export const lambdaToolSpecSchema = z.object({
  name: z.string(),
  description: z.string().min(1),
  /** JSON Schema of the arguments: an object schema. */
  parameters: z.record(z.string(), z.unknown()),
  /** The function's name or ARN. */
  functionName: z.string().min(1),
  sequential: z.boolean().optional(),
  timeoutMs: z.number().int().positive().optional(),
  /** Each call waits for a person's approval before it runs. */
  approval: z.boolean().optional(),
  /** Running a call twice does what running it once does: a call whose outcome is unknown runs again (decision 0031). @default false */
  idempotent: z.boolean().optional(),
  /**
   * The event carries the call's stable key as an `idempotencyKey` field next to the arguments
   * (no parameter may then be named so). @default false: the event is the arguments, unchanged
   */
  passIdempotencyKey: z.boolean().optional(),
});

/** A Lambda function offered to the model as a tool. */
export type LambdaToolSpec = z.infer<typeof lambdaToolSpecSchema>;
