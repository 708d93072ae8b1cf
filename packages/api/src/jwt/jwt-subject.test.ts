import { createLocalJWKSet, errors, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { type JwtChecks, jwtSubject } from './jwt-subject.js';

const ISSUER = 'https://issuer.example.com/';
const AUDIENCE = 'agentstep-api';
const IN_FIVE_MINUTES = () => Math.floor(Date.now() / 1000) + 300;

type SigningKey = Parameters<SignJWT['sign']>[0];

let signing: SigningKey;
let checks: JwtChecks;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  signing = privateKey;
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  checks = { issuer: ISSUER, audience: AUDIENCE, keys: createLocalJWKSet({ keys: [jwk] }) };
});

/** A token of the issuer for the audience naming alice for five minutes, with `claims` over those. */
function token(claims: Record<string, unknown> = {}, options: { key?: SigningKey; kid?: string } = {}) {
  return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'alice', exp: IN_FIVE_MINUTES(), ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? 'k1' })
    .sign(options.key ?? signing);
}

describe('jwtSubject', () => {
  it('names the sub of a token of the issuer for the audience that has not expired', async () => {
    expect(await jwtSubject(await token(), checks)).toEqual({ sub: 'alice' });
  });

  it.each([
    ['no exp (it would never expire)', { exp: undefined }, 'The token has no exp claim.'],
    ['a sub that is a number', { sub: 123 }, 'The token’s sub must be a non-empty string.'],
    ['an empty sub', { sub: '' }, 'The token’s sub must be a non-empty string.'],
    ['no sub', { sub: undefined }, 'The token has no sub claim.'],
    ['an exp that has passed', { exp: Math.floor(Date.now() / 1000) - 60 }, 'The token has expired.'],
    [
      'an exp that is no number',
      { exp: 'tomorrow' },
      'The token’s exp claim is refused ("exp" claim must be a number).',
    ],
    [
      'another audience',
      { aud: 'another-api' },
      'The token’s aud claim is refused (unexpected "aud" claim value).',
    ],
    [
      'another issuer',
      { iss: 'https://other.example.com/' },
      'The token’s iss claim is refused (unexpected "iss" claim value).',
    ],
  ])('refuses a token with %s, saying why', async (_, claims, refused) => {
    expect(await jwtSubject(await token(claims), checks)).toEqual({ refused });
  });

  it('refuses a token signed by another key, one naming a key the issuer lacks, and one that is no JWT', async () => {
    const otherKey = (await generateKeyPair('ES256')).privateKey;
    expect(await jwtSubject(await token({}, { key: otherKey }), checks)).toEqual({
      refused: 'The token’s signature does not verify with the issuer’s keys.',
    });
    expect(await jwtSubject(await token({}, { kid: 'k2' }), checks)).toEqual({
      refused: 'The token names no key the issuer publishes.',
    });
    expect(await jwtSubject('not.a.jwt', checks)).toEqual({
      refused: expect.stringMatching(/^The token is not a JWT this API accepts \(.+\)\.$/),
    });
  });

  it('throws, not refuses, when the issuer’s key set cannot be read', async () => {
    const unreadable: JwtChecks = {
      ...checks,
      keys: async () => {
        throw new errors.JOSEError('Expected 200 OK from the JSON Web Key Set HTTP response');
      },
    };
    await expect(jwtSubject(await token(), unreadable)).rejects.toThrow(/Expected 200 OK/);
  });
});
