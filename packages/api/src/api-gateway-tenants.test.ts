import type { TurnAccepted } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { authorizerTenant, iamTenant } from './api-gateway-tenants.js';
import { createApi } from './create-api.js';
import { inMemoryApiDeps } from './testing/index.js';

/** A REST API proxy event's request context, as API Gateway fills it in after authorizing. */
function requestContext(parts: { authorizer?: unknown; identity?: Record<string, unknown> }) {
  return {
    accountId: '123456789012',
    apiId: 'abc123',
    stage: 'prod',
    requestId: 'r-1',
    httpMethod: 'POST',
    path: '/prod/sessions',
    resourcePath: '/{proxy+}',
    identity: {
      sourceIp: '203.0.113.7',
      userAgent: 'curl/8',
      userArn: null,
      caller: null,
      ...parts.identity,
    },
    ...(parts.authorizer === undefined ? {} : { authorizer: parts.authorizer }),
  };
}

/** What `hono/aws-lambda` hands the app as its env. */
const lambdaEnv = (context: ReturnType<typeof requestContext>) => ({
  event: { requestContext: context },
  requestContext: context,
});

const request = new Request('https://api.example.com/sessions');

describe('authorizerTenant (the JWT authorizer deployed)', () => {
  it.each([
    ['the context sub', { principalId: 'user-1', sub: 'user-1', integrationLatency: 12 }, 'user-1'],
    ['the principalId when the context has no sub', { principalId: 'user-2' }, 'user-2'],
    ['nothing without an authorizer', undefined, undefined],
    ['nothing from an empty sub and principalId', { principalId: '', sub: '' }, undefined],
  ])('reads %s', (_, authorizer, tenant) => {
    expect(authorizerTenant(request, lambdaEnv(requestContext({ authorizer })))).toBe(tenant);
  });

  it('reads nothing from a request served without a Lambda event (a local host)', () => {
    expect(authorizerTenant(request, { incoming: {}, outgoing: {} })).toBeUndefined();
    expect(authorizerTenant(request)).toBeUndefined();
  });

  it('never reads the IAM identity', () => {
    const context = requestContext({ identity: { userArn: 'arn:aws:iam::123456789012:user/alice' } });
    expect(authorizerTenant(request, lambdaEnv(context))).toBeUndefined();
  });
});

describe('iamTenant (IAM authorization deployed)', () => {
  it.each([
    [
      'the user ARN of an IAM user',
      { userArn: 'arn:aws:iam::123456789012:user/alice', caller: 'AIDAEXAMPLE' },
      'arn:aws:iam::123456789012:user/alice',
    ],
    [
      'the role session of an assumed role',
      { userArn: 'arn:aws:sts::123456789012:assumed-role/App/bob', caller: 'AROAEXAMPLE:bob' },
      'arn:aws:sts::123456789012:assumed-role/App/bob',
    ],
    ['the caller when there is no user ARN', { caller: 'AROAEXAMPLE:carol' }, 'AROAEXAMPLE:carol'],
    ['nothing from an unsigned request', {}, undefined],
  ])('reads %s', (_, identity, tenant) => {
    expect(iamTenant(request, lambdaEnv(requestContext({ identity })))).toBe(tenant);
  });

  it('never reads an authorizer context', () => {
    const context = requestContext({ authorizer: { principalId: 'mallory', sub: 'mallory' } });
    expect(iamTenant(request, lambdaEnv(context))).toBeUndefined();
  });
});

describe('createApi deployed behind the JWT authorizer', () => {
  const app = createApi(inMemoryApiDeps(authorizerTenant));
  const as = (sub: string | undefined) =>
    lambdaEnv(requestContext({ authorizer: sub === undefined ? undefined : { principalId: sub, sub } }));
  const start = (sub: string | undefined) =>
    app.request(
      '/sessions',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hi' }),
      },
      as(sub),
    );

  it('acts for the token’s sub: another sub cannot see the session, and no verdict is a 401', async () => {
    const started = await start('alice');
    expect(started.status).toBe(202);
    const { session } = (await started.json()) as TurnAccepted;
    expect((await app.request(`/sessions/${session}`, {}, as('alice'))).status).toBe(200);
    expect((await app.request(`/sessions/${session}`, {}, as('bob'))).status).toBe(404);
    const anonymous = await start(undefined);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 'Unauthorized' } });
  });
});
