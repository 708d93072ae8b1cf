import { lambdaToolSpecSchema } from '@agentstep/runtime/lambda';
import { z } from 'zod';

const commaList = z
  .string()
  .default('')
  .transform((names) => names.split(',').filter((name) => name !== ''));

/** An environment variable holding JSON text, checked against `schema`. */
export function jsonEnv<T extends z.ZodType>(schema: T, fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((text) => JSON.parse(text) as unknown)
    .pipe(schema);
}

/** Environment every AgentStep function reads: the event-log table. */
export const tableEnvSchema = z.object({ AGENTSTEP_TABLE: z.string().min(1) });

/** Environment of the functions that know the tools: the built-in toolsets, comma-separated. */
export const toolsEnvSchema = tableEnvSchema.extend({
  AGENTSTEP_TOOLSETS: commaList,
  AGENTSTEP_HTTP_ALLOW_HOSTS: commaList,
  /** JSON array of Lambda tools, as the construct's `lambdaTools` describes them. */
  AGENTSTEP_LAMBDA_TOOLS: jsonEnv(z.array(lambdaToolSpecSchema), '[]'),
});
