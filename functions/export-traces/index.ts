import { ENV_NAMES } from '@agentstep/protocol';
import { dynamoStores } from '@agentstep/runtime/dynamo';
import * as z from 'zod';
import { tableEnvSchema } from '../table-env-schema.js';
import { traceExporterOf } from '../trace-exporter-of.js';
import { createHandler } from './handler.js';

const env = tableEnvSchema
  .extend({
    [ENV_NAMES.tracesEndpoint]: z.string().min(1),
    [ENV_NAMES.tracesHeadersSecret]: z.string().min(1).optional(),
    [ENV_NAMES.tracesCaptureContent]: z.enum(['true', 'false']).default('false'),
    [ENV_NAMES.agentName]: z.string().min(1),
    AWS_REGION: z.string().min(1),
  })
  .parse(process.env);
const headersSecret = env[ENV_NAMES.tracesHeadersSecret];

export const handler = createHandler({
  ...dynamoStores(env[ENV_NAMES.table]),
  exporter: traceExporterOf({
    endpoint: env[ENV_NAMES.tracesEndpoint],
    region: env.AWS_REGION,
    ...(headersSecret === undefined ? {} : { headersSecret }),
  }),
  agent: env[ENV_NAMES.agentName],
  captureContent: env[ENV_NAMES.tracesCaptureContent] === 'true',
});
