import { describe, expect, it } from 'vitest';
import { tokenForAudience } from './token-for-audience.js';

/** An unsigned JWT with these claims (the chooser never checks signatures: the API does). */
function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => {
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    return btoa(String.fromCharCode(...bytes))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
  };
  return `${part({ alg: 'RS256' })}.${part(claims)}.signature`;
}

describe('tokenForAudience', () => {
  it('takes the access token when its aud names the audience, with its expiry in milliseconds', () => {
    const access = jwt({ aud: ['agentstep-api', 'other'], exp: 1_800_000_000 });
    expect(tokenForAudience([access, jwt({ aud: 'console' })], 'agentstep-api')).toEqual({
      jwt: access,
      expiresAt: 1_800_000_000_000,
    });
  });

  it('takes the ID token when the access token is opaque or names no audience (Cognito)', () => {
    const id = jwt({ aud: 'client-1', sub: 'ü-alice' });
    expect(tokenForAudience(['opaque-token', id], 'client-1')?.jwt).toBe(id);
    expect(tokenForAudience([jwt({ client_id: 'client-1' }), id], 'client-1')?.jwt).toBe(id);
  });

  it('finds none when no token carries the audience', () => {
    expect(tokenForAudience([undefined, jwt({ aud: 'console' }), 'a.b'], 'agentstep-api')).toBeUndefined();
  });
});
