import { ENV_NAMES } from '@agentstep/protocol';
import { createToolset } from '@agentstep/runtime';
import { dynamoStores } from '@agentstep/runtime/dynamo';
import { S3Workspace } from '@agentstep/runtime/s3';
import * as z from 'zod';
import { toolsEnvSchema } from '../tools-env-schema.js';
import { toolsFromEnv } from '../tools-from-env.js';
import { createHandler } from './handler.js';

const env = toolsEnvSchema
  .extend({ [ENV_NAMES.workspaceBucket]: z.string().min(1).optional() })
  .parse(process.env);
const bucket = env[ENV_NAMES.workspaceBucket];
const workspace = bucket ? new S3Workspace({ bucket }) : undefined;

export const handler = createHandler({
  ...dynamoStores(env[ENV_NAMES.table]),
  toolset: createToolset(toolsFromEnv(env, workspace ? { workspace } : {})),
});
