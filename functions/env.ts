import { lambdaToolSpecSchema } from '@agentstep/runtime/lambda';
import { z } from 'zod';

const commaList = z
  .string()
  .default('')
  .transform((names) => names.split(',').filter((name) => name !== ''));

/** Environment every AgentStep function reads: the event-log table. */
export const tableEnvSchema = z.object({ AGENTSTEP_TABLE: z.string().min(1) });

/** Environment of the functions that know the tools: the built-in toolsets, comma-separated. */
export const toolsEnvSchema = tableEnvSchema.extend({
  AGENTSTEP_TOOLSETS: commaList,
  AGENTSTEP_HTTP_ALLOW_HOSTS: commaList,
  /** JSON array of Lambda tools, as the construct's `lambdaTools` describes them. */
  AGENTSTEP_LAMBDA_TOOLS: z
    .string()
    .default('[]')
    .transform((text) => JSON.parse(text) as unknown)
    .pipe(z.array(lambdaToolSpecSchema)),
});
