import type { TurnAccepted } from '@agentstep/protocol';
import { createLocalJWKSet, errors, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApi } from './create-api.js';
import { jwtTenant } from './tenants.js';
import { inMemoryApiDeps } from './testing/index.js';

const ISSUER = 'https://issuer.example.com/';
const AUDIENCE = 'agentstep-console';

let sign: (claims: { sub?: string; aud?: string; iss?: string; exp?: string }) => Promise<string>;
let app: ReturnType<typeof createApi>;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  sign = ({ sub, aud = AUDIENCE, iss = ISSUER, exp = '5m' }) => {
    const jwt = new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer(iss);
    if (sub !== undefined) jwt.setSubject(sub);
    return jwt.setAudience(aud).setIssuedAt().setExpirationTime(exp).sign(privateKey);
  };
  const keys = createLocalJWKSet({ keys: [jwk] });
  app = createApi(inMemoryApiDeps(jwtTenant({ issuer: ISSUER, audience: AUDIENCE, keys })));
});

async function request(method: string, path: string, token?: string, body?: unknown) {
  const response = await app.request(path, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: JSON.parse(await response.text()) };
}

describe('jwtTenant', () => {
  it('lets a token of the issuer for the audience in, as its sub: each sub its own sessions', async () => {
    const alice = await sign({ sub: 'alice' });
    const started = await request('POST', '/sessions', alice, { message: 'Hi' });
    expect(started.status).toBe(202);
    const { session } = started.body as TurnAccepted;
    expect((await request('GET', `/sessions/${session}`, alice)).status).toBe(200);
    const bob = await sign({ sub: 'bob' });
    expect((await request('GET', `/sessions/${session}`, bob)).body.error.code).toBe('SessionNotFound');
    expect((await request('GET', '/sessions', bob)).body.sessions).toEqual([]);
  });

  it.each([
    ['no token', undefined],
    ['a token for another audience', { sub: 'alice', aud: 'someone-else' }],
    ['a token of another issuer', { sub: 'alice', iss: 'https://other.example.com/' }],
    ['an expired token', { sub: 'alice', exp: '-1m' }],
    ['a token without a sub', {}],
  ])('answers 401 Unauthorized to %s', async (_, claims) => {
    const token = claims === undefined ? undefined : await sign(claims);
    const { status, body } = await request('GET', '/sessions', token);
    expect({ status, code: body.error.code }).toEqual({ status: 401, code: 'Unauthorized' });
  });

  it('answers 401 to a refused token with the reason, before reading the body', async () => {
    const expired = await sign({ sub: 'alice', exp: '-1m' });
    const { status, body } = await request('POST', '/sessions', expired, { unknown: 'field' });
    expect({ status, body }).toEqual({
      status: 401,
      body: {
        error: {
          code: 'Unauthorized',
          message: 'This request’s credentials were refused: The token has expired. Sign in again.',
        },
      },
    });
  });

  it('answers 401 to a bearer value that is no JWT, saying the credentials were refused', async () => {
    const { status, body } = await request('GET', '/sessions', 'alice');
    expect([status, body.error.message]).toEqual([401, expect.stringContaining('were refused')]);
    expect((await request('GET', '/sessions')).body.error.message).toContain('carries no credentials');
  });

  it('fails (500), not refuses, when the issuer’s key set cannot be read', async () => {
    const unreadable = createApi(
      inMemoryApiDeps(
        jwtTenant({
          issuer: ISSUER,
          audience: AUDIENCE,
          keys: async () => {
            throw new errors.JOSEError('Expected 200 OK from the JSON Web Key Set HTTP response');
          },
        }),
      ),
    );
    const response = await unreadable.request('/sessions', {
      headers: { authorization: `Bearer ${await sign({ sub: 'alice' })}` },
    });
    expect(response.status).toBe(500);
  });
});
