import { createToolset } from '@agentstep/runtime';
import { dynamoStores } from '@agentstep/runtime/dynamo';
import { S3Workspace } from '@agentstep/runtime/s3';
import * as z from 'zod';
import { toolsEnvSchema } from '../tools-env-schema.js';
import { toolsFromEnv } from '../tools-from-env.js';
import { createHandler } from './handler.js';

const env = toolsEnvSchema
  .extend({ AGENTSTEP_WORKSPACE_BUCKET: z.string().min(1).optional() })
  .parse(process.env);
const workspace = env.AGENTSTEP_WORKSPACE_BUCKET
  ? new S3Workspace({ bucket: env.AGENTSTEP_WORKSPACE_BUCKET })
  : undefined;

export const handler = createHandler({
  ...dynamoStores(env.AGENTSTEP_TABLE),
  toolset: createToolset(toolsFromEnv(env, workspace ? { workspace } : {})),
});
