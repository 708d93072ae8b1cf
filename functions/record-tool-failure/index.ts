import { dynamoStores } from '@agentstep/runtime/dynamo';
import { tableEnvSchema } from '../table-env-schema.js';
import { createHandler } from './handler.js';

const env = tableEnvSchema.parse(process.env);
export const handler = createHandler(dynamoStores(env.AGENTSTEP_TABLE));
