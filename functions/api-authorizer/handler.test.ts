import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { issuerKeys } from '@agentstep/api/jwt';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHORIZED } from './authorize-bearer.js';
import { createHandler } from './handler.js';

type SigningKey = Parameters<SignJWT['sign']>[0];

const context = { functionName: 'api-authorizer', awsRequestId: 'r' } as Context;
const logger = new Logger({ logLevel: 'SILENT' });
const audience = 'agentstep-api';
const methodArn = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/POST/sessions';

/** An OIDC issuer on this machine: its discovery document and key set, served over node:http. */
async function localIssuer() {
  const signing = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(signing.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let issuer = '';
  let discoveryStatus = 200;
  const server: Server = createServer((request, response) => {
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (request.url === '/.well-known/openid-configuration')
      return json(discoveryStatus, { issuer, jwks_uri: `${issuer}/jwks.json` });
    if (request.url === '/jwks.json') return json(200, { keys: [jwk] });
    return json(404, {});
  });
  await new Promise<void>((settle) => server.listen(0, '127.0.0.1', settle));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    signing,
    server,
    failDiscovery: (status: number) => {
      discoveryStatus = status;
    },
  };
}

describe('the JWT authorizer (TOKEN authorizer over an OIDC issuer’s keys)', () => {
  let local: Awaited<ReturnType<typeof localIssuer>>;
  let handler: ReturnType<typeof createHandler>;
  beforeAll(async () => {
    local = await localIssuer();
    handler = createHandler({ issuer: local.issuer, audience, keys: issuerKeys(local.issuer), logger });
  });
  afterAll(() => local.server.close());

  /** A token as the issuer would sign it, with `changes` to its claims, header or key (`expiresIn: null`: no `exp`). */
  async function token(
    changes: {
      claims?: Record<string, unknown>;
      expiresIn?: string | null;
      key?: SigningKey;
      kid?: string;
    } = {},
  ) {
    const jwt = new SignJWT({ sub: 'alice', iss: local.issuer, aud: audience, ...changes.claims })
      .setProtectedHeader({ alg: 'RS256', kid: changes.kid ?? 'k1' })
      .setIssuedAt();
    if (changes.expiresIn !== null) jwt.setExpirationTime(changes.expiresIn ?? '5m');
    return jwt.sign(changes.key ?? local.signing.privateKey);
  }
  const authorize = (authorizationToken: string) =>
    handler({ type: 'TOKEN', authorizationToken, methodArn }, context);

  it('lets a valid token’s sub call every route of the stage, with sub in the context', async () => {
    expect(await authorize(`Bearer ${await token()}`)).toEqual({
      principalId: 'alice',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Action: 'execute-api:Invoke',
            Effect: 'Allow',
            Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*',
          },
        ],
      },
      context: { sub: 'alice' },
    });
  });

  it.each([
    ['an expired token', () => token({ expiresIn: '-1m' })],
    ['a token for another audience', () => token({ claims: { aud: 'another-api' } })],
    ['a token of another issuer', () => token({ claims: { iss: 'https://issuer.example.com' } })],
    ['a token without a sub', () => token({ claims: { sub: undefined } })],
    ['a token without an exp (it would never expire)', () => token({ expiresIn: null })],
    ['a token whose sub is a number', () => token({ claims: { sub: 123 } })],
    ['a token whose sub is empty', () => token({ claims: { sub: '' } })],
    [
      'a token signed by another key under the issuer’s key id',
      async () => token({ key: (await generateKeyPair('RS256')).privateKey }),
    ],
    ['a token naming a key the issuer does not have', () => token({ kid: 'k2' })],
    ['a token that is not a JWT', async () => 'not.a.jwt'],
    [
      'an unsigned token (alg none)',
      async () =>
        `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
          JSON.stringify({ sub: 'mallory', iss: local.issuer, aud: audience }),
        ).toString('base64url')}.`,
    ],
  ])('refuses %s with Unauthorized (a 401)', async (_, make) => {
    await expect(authorize(`Bearer ${await make()}`)).rejects.toThrow(new Error(UNAUTHORIZED));
  });

  it('refuses credentials that are not a Bearer token with Unauthorized', async () => {
    await expect(authorize(`Basic ${Buffer.from('alice:pw').toString('base64')}`)).rejects.toThrow(
      new Error(UNAUTHORIZED),
    );
  });

  it('throws, not refuses, when the issuer cannot be reached, and recovers once it answers', async () => {
    const fresh = createHandler({ issuer: local.issuer, audience, keys: issuerKeys(local.issuer), logger });
    local.failDiscovery(503);
    const run = async () =>
      fresh({ type: 'TOKEN', authorizationToken: `Bearer ${await token()}`, methodArn }, context);
    await expect(run()).rejects.toThrow(/OIDC discovery .* answered 503/);
    local.failDiscovery(200);
    expect(await run()).toMatchObject({ principalId: 'alice' });
  });

  it('fails on a discovery document that names another issuer', async () => {
    const keys = issuerKeys(`${local.issuer}/`);
    const mismatched = createHandler({ issuer: `${local.issuer}/`, audience, keys, logger });
    await expect(
      mismatched({ type: 'TOKEN', authorizationToken: `Bearer ${await token()}`, methodArn }, context),
    ).rejects.toThrow(/names issuer .*, not /);
  });
});
