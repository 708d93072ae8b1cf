import {
  type A2aAgentInfo,
  authorizerTenant,
  DraftLiveSteps,
  iamTenant,
  type TenantOf,
} from '@agentstep/api';
import { API_AUTH_MODES, type ApiAuthMode, ENV_NAMES } from '@agentstep/protocol';
import { type Agent, createToolset } from '@agentstep/runtime';
import { DynamoStepDrafts } from '@agentstep/runtime/dynamo';
import {
  StepFunctionsStarter,
  StepFunctionsTaskTokens,
  StepFunctionsWorkflowStarter,
} from '@agentstep/runtime/sfn';
import * as z from 'zod';
import { tableStepDeps } from '../table-step-deps.js';
import { tenantCeilingEnv } from '../tenant-ceiling-env.js';
import { toolsEnvSchema } from '../tools-env-schema.js';
import { toolsFromEnv } from '../tools-from-env.js';
import { createHandler } from './handler.js';

/** Where each way of authorizing puts the caller's tenant. */
const TENANT_OF: Readonly<Record<ApiAuthMode, TenantOf>> = { jwt: authorizerTenant, iam: iamTenant };

/** A minute inside API Gateway's 15-minute stream cap: the stream ends cleanly and the client resumes. */
const STREAM_LIMIT_MS = 14 * 60 * 1000;

/**
 * The API function's handler from the environment; with `agent` (bundled with the agent's file),
 * its own tools are listed and checked too.
 */
export function handlerFor(agent?: Agent) {
  const env = toolsEnvSchema
    .extend({
      [ENV_NAMES.stateMachine]: z.string().min(1),
      [ENV_NAMES.workflowStateMachine]: z.string().min(1),
      [ENV_NAMES.apiAuth]: z.enum(API_AUTH_MODES),
      [ENV_NAMES.corsOrigins]: z.string().optional(),
      [ENV_NAMES.tenantCeiling]: tenantCeilingEnv,
      [ENV_NAMES.agentName]: z.string().min(1),
      [ENV_NAMES.agentVersion]: z.string().min(1),
      [ENV_NAMES.jwtIssuer]: z.string().min(1).optional(),
    })
    .parse(process.env);
  const auth = env[ENV_NAMES.apiAuth];
  const issuer = env[ENV_NAMES.jwtIssuer];
  const agentInfo: A2aAgentInfo = {
    name: env[ENV_NAMES.agentName],
    version: env[ENV_NAMES.agentVersion],
    ...(auth === 'iam' ? { auth: 'sigv4' } : { auth: 'oidc', ...(issuer ? { issuer } : {}) }),
  };
  // The text model steps stream in their own functions, read from its drafts (docs/decisions/0025).
  const live = new DraftLiveSteps(new DynamoStepDrafts({ tableName: env[ENV_NAMES.table] }));
  return createHandler({
    ...tableStepDeps,
    log: live.watch(tableStepDeps.log),
    live,
    starter: new StepFunctionsStarter({ stateMachineArn: env[ENV_NAMES.stateMachine] }),
    workflows: new StepFunctionsWorkflowStarter({ stateMachineArn: env[ENV_NAMES.workflowStateMachine] }),
    taskTokens: new StepFunctionsTaskTokens(),
    // Only to list the tools and check a decision's edited arguments: no tool runs here, so no
    // workspace (no S3 client).
    toolset: createToolset(toolsFromEnv(env, {}, agent)),
    tenantOf: TENANT_OF[env[ENV_NAMES.apiAuth]],
    streamLimitMs: STREAM_LIMIT_MS,
    corsOrigins: env[ENV_NAMES.corsOrigins]?.split(',') ?? [],
    tenantCeiling: env[ENV_NAMES.tenantCeiling],
    agentInfo: () => agentInfo,
  });
}
