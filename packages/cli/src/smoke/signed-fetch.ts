import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * A fetch that signs each request with SigV4 for API Gateway (`execute-api`) in `region`, with the
 * credentials of the AWS environment (variables, profile, SSO, instance role), as the deployed
 * API's IAM authorization requires.
 */
export function signedFetch(region: string): typeof fetch {
  const signer = new SignatureV4({
    service: 'execute-api',
    region,
    credentials: defaultProvider(),
    sha256: Sha256,
  });
  return async (input, init = {}) => {
    // What @agentstep/client sends: a URL, and a body of JSON text or none. Anything else would be
    // signed for what it is not.
    if (input instanceof Request) throw new TypeError('signedFetch signs a URL and its init, not a Request.');
    if (init.body != null && typeof init.body !== 'string')
      throw new TypeError(
        `signedFetch signs a body of text, received ${Object.prototype.toString.call(init.body)}.`,
      );
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const body = init.body ?? undefined;
    const headers: Record<string, string> = { host: url.host };
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const signed = await signer.sign({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      ...(body === undefined ? {} : { body }),
    });
    return fetch(url, { ...init, method, headers: signed.headers });
  };
}
