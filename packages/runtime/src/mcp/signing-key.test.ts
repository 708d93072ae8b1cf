import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signingKey } from './signing-key.js';

const WHAT = 'The secret "K" of oauth.privateKey';

function pemOf(type: 'rsa' | 'rsa-pss' | 'ec' | 'ed25519', options: object = {}, encoding = 'pkcs8'): string {
  const { privateKey } = generateKeyPairSync(type as 'rsa', { modulusLength: 2048, ...options });
  return privateKey.export({ format: 'pem', type: encoding as 'pkcs8' }).toString();
}

describe('signingKey', () => {
  it("signs with the key's own algorithm by default, and gives the key as PKCS#8 whatever its PEM", () => {
    const rsa = signingKey(pemOf('rsa', {}, 'pkcs1'), undefined, WHAT);
    expect(rsa.algorithm).toBe('RS256');
    expect(rsa.pkcs8).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(signingKey(pemOf('rsa-pss'), undefined, WHAT).algorithm).toBe('PS256');
    expect(signingKey(pemOf('ec', { namedCurve: 'P-256' }, 'sec1'), undefined, WHAT).algorithm).toBe('ES256');
    expect(signingKey(pemOf('ec', { namedCurve: 'P-384' }), undefined, WHAT).algorithm).toBe('ES384');
    expect(signingKey(pemOf('ec', { namedCurve: 'P-521' }), undefined, WHAT).algorithm).toBe('ES512');
  });

  it('takes an algorithm the key signs with', () => {
    expect(signingKey(pemOf('rsa'), 'PS384', WHAT).algorithm).toBe('PS384');
  });

  it('refuses an algorithm the key cannot sign with, a key of another type and what is no private key', () => {
    expect(() => signingKey(pemOf('ec', { namedCurve: 'P-384' }), 'ES256', WHAT)).toThrow(
      'The secret "K" of oauth.privateKey is an EC key on secp384r1, which signs with ES384, not ES256: give a key of the algorithm, or the algorithm of the key.',
    );
    expect(() => signingKey(pemOf('ed25519'), undefined, WHAT)).toThrow(
      'The secret "K" of oauth.privateKey is an ED25519 key, which signs with none of RS*, PS*, ES*: give a key of the algorithm, or the algorithm of the key.',
    );
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const publicPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
    for (const text of ['not a key', publicPem])
      expect(() => signingKey(text, undefined, WHAT)).toThrow(
        /^The secret "K" of oauth\.privateKey is not a PEM private key: .+\.$/,
      );
  });
});
