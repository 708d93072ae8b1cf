import { DEFAULT_APPROVAL_TIMEOUT_SECONDS, ENV_NAMES } from '@agentstep/protocol';
import { lambdaToolSpecSchema } from '@agentstep/runtime/lambda-tool';
import * as z from 'zod';
import { jsonEnv } from './json-env.js';
import { tableEnvSchema } from './table-env-schema.js';

const commaList = z
  .string()
  .default('')
  .transform((names) => names.split(',').filter((name) => name !== ''));

/**
 * Environment of the functions that know the tools: the built-in toolsets, comma-separated, the
 * Lambda tools, and which calls wait for approval. Apart
 * from `tableEnvSchema` so that functions without tools do not load the Lambda client.
 */
export const toolsEnvSchema = tableEnvSchema.extend({
  [ENV_NAMES.toolsets]: commaList,
  [ENV_NAMES.httpAllowHosts]: commaList,
  /** JSON array of Lambda tools, as the construct's `lambdaTools` describes them. */
  [ENV_NAMES.lambdaTools]: jsonEnv(z.array(lambdaToolSpecSchema), '[]'),
  /** Tools whose calls wait for approval (`*`: all), besides Lambda tools marked `approval`. */
  [ENV_NAMES.approvals]: commaList,
  [ENV_NAMES.approvalTimeout]: z.coerce.number().int().positive().default(DEFAULT_APPROVAL_TIMEOUT_SECONDS),
});
