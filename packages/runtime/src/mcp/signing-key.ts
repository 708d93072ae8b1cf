import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { McpOAuthAlgorithm } from './mcp-oauth-spec.js';

/** A private key ready to sign client assertions: PKCS#8 PEM, and the algorithm it signs with. */
export interface SigningKey {
  pkcs8: string;
  algorithm: McpOAuthAlgorithm;
}

const RSA: readonly McpOAuthAlgorithm[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

/** What each EC curve signs with (RFC 7518: one curve per ES algorithm). */
const EC_ALGORITHMS: Readonly<Record<string, McpOAuthAlgorithm>> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
};

/**
 * The PEM private key `pem` (PKCS#8, or PKCS#1 / SEC1) as PKCS#8, with the algorithm it signs with:
 * `algorithm` if the key can sign with it, else the key's own (RS256 for RSA, PS256 for RSA-PSS, ES256,
 * ES384 or ES512 for an EC key by its curve). Throws, naming `what` (the key's secret), when it is
 * no private key, a key of another type, or one that cannot sign with `algorithm`.
 */
export function signingKey(pem: string, algorithm: McpOAuthAlgorithm | undefined, what: string): SigningKey {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new Error(`${what} is not a PEM private key: ${(error as Error).message}.`, { cause: error });
  }
  const algorithms = algorithmsOf(key);
  const chosen = algorithm ?? algorithms[0];
  if (chosen === undefined || !algorithms.includes(chosen))
    throw new Error(
      `${what} is ${describeKey(key)}, which signs with ${algorithms.join(', ') || 'none of RS*, PS*, ES*'}${chosen === undefined ? '' : `, not ${chosen}`}: give a key of the algorithm, or the algorithm of the key.`,
    );
  return { pkcs8: key.export({ format: 'pem', type: 'pkcs8' }).toString(), algorithm: chosen };
}

function algorithmsOf(key: KeyObject): readonly McpOAuthAlgorithm[] {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return RSA;
    case 'rsa-pss':
      return RSA.filter((algorithm) => algorithm.startsWith('PS'));
    case 'ec': {
      const algorithm = EC_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
      return algorithm === undefined ? [] : [algorithm];
    }
    default:
      return [];
  }
}

function describeKey(key: KeyObject): string {
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return `an ${key.asymmetricKeyType?.toUpperCase() ?? 'unknown'} key${curve === undefined ? '' : ` on ${curve}`}`;
}
