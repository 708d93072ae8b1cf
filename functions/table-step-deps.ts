import { ENV_NAMES } from '@agentstep/protocol';
import { systemClock } from '@agentstep/runtime';
import { dynamoStores } from '@agentstep/runtime/dynamo';
import { tableEnvSchema } from './table-env-schema.js';

const env = tableEnvSchema.parse(process.env);

/** The stores on the environment's table and the system clock: all a step that only logs needs. */
export const tableStepDeps = { ...dynamoStores(env[ENV_NAMES.table]), clock: systemClock };
