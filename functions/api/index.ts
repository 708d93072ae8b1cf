import { authorizerTenant, iamTenant, type TenantOf } from '@agentstep/api';
import { API_AUTH_MODES, type ApiAuthMode, ENV_NAMES } from '@agentstep/protocol';
import { StepFunctionsStarter } from '@agentstep/runtime/sfn';
import * as z from 'zod';
import { tableStepDeps } from '../table-step-deps.js';
import { createHandler } from './handler.js';

const env = z
  .object({
    [ENV_NAMES.stateMachine]: z.string().min(1),
    [ENV_NAMES.apiAuth]: z.enum(API_AUTH_MODES),
  })
  .parse(process.env);

/** Where each way of authorizing puts the caller's tenant. */
const TENANT_OF: Readonly<Record<ApiAuthMode, TenantOf>> = { jwt: authorizerTenant, iam: iamTenant };

/** A minute inside API Gateway's 15-minute stream cap: the stream ends cleanly and the client resumes. */
const STREAM_LIMIT_MS = 14 * 60 * 1000;

export const handler = createHandler({
  ...tableStepDeps,
  starter: new StepFunctionsStarter({ stateMachineArn: env[ENV_NAMES.stateMachine] }),
  tenantOf: TENANT_OF[env[ENV_NAMES.apiAuth]],
  streamLimitMs: STREAM_LIMIT_MS,
});
