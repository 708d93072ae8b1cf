import { builtInTools, createToolset } from '@agentstep/runtime';
import { dynamoStores } from '@agentstep/runtime/dynamo';
import { toolsEnvSchema } from '../env.js';
import { createHandler } from './handler.js';

const env = toolsEnvSchema.parse(process.env);
export const handler = createHandler({
  ...dynamoStores(env.AGENTSTEP_TABLE),
  toolset: createToolset(builtInTools(env.AGENTSTEP_TOOLSETS)),
});
