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
});

/** A Lambda function offered to the model as a tool. */
export type LambdaToolSpec = z.infer<typeof lambdaToolSpecSchema>;
