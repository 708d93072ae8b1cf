import * as z from 'zod';
import type { TenantOf } from './tenants.js';

const present = z.string().min(1).optional().catch(undefined);

/**
 * The parts of a REST API proxy event's `requestContext` that name the caller: API Gateway writes
 * them after authorizing the request, so no header or body can set them.
 */
const requestContextSchema = z.object({
  /** A Lambda authorizer's verdict: its `principalId` and the context it returned. */
  authorizer: z.object({ principalId: present, sub: present }).nullish().catch(undefined),
  /** The SigV4 signer of an IAM-authorized request. */
  identity: z.object({ userArn: present, caller: present }).nullish().catch(undefined),
});

/** What `hono/aws-lambda` hands the app as its env: the event's request context among others. */
const lambdaEnvSchema = z.object({ requestContext: requestContextSchema });

function requestContextOf(env: unknown) {
  const parsed = lambdaEnvSchema.safeParse(env);
  return parsed.success ? parsed.data.requestContext : undefined;
}

/**
 * Deployed with the JWT authorizer: the tenant is the verified token's `sub`, which the authorizer
 * returns as its context's `sub` and its `principalId`. Without an authorizer's verdict there is none.
 */
export const authorizerTenant: TenantOf = (_request, env) => {
  const authorizer = requestContextOf(env)?.authorizer;
  return authorizer?.sub ?? authorizer?.principalId;
};

/**
 * Deployed with IAM authorization: the tenant is the caller's principal, the ARN that signed the
 * request (`userArn`; for an assumed role, the role session), else its `caller` id.
 */
export const iamTenant: TenantOf = (_request, env) => {
  const identity = requestContextOf(env)?.identity;
  return identity?.userArn ?? identity?.caller;
};
