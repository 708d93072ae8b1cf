import { type ApiDeps, createApi } from '@agentstep/api';
import type { Handler } from 'aws-lambda';
// `@hono/aws-lambda`, its successor, is not among the packages this project can install yet.
import { streamHandle } from 'hono/aws-lambda';

/**
 * The HTTP API on API Gateway (decision 0016): every route of `createApi`, its response streamed
 * through Lambda (`awslambda.streamifyResponse`), so `GET /stream` flows as it is written and JSON
 * routes answer as one chunk. The tenant comes from the event's authorizer context or identity.
 */
export const createHandler = (deps: ApiDeps): Handler => streamHandle(createApi(deps));
