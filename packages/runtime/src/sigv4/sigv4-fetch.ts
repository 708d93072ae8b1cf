import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

/** Whom and what a {@link sigV4Fetch} signs for. */
export interface SigV4FetchOptions {
  /** The service the requests are signed for: `execute-api`, `xray`, … */
  service: string;
  region: string;
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** The fetch that sends the signed requests. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * A fetch that signs each request with SigV4 before sending it, as AWS endpoints behind IAM take
 * them: API Gateway with IAM authorization (`execute-api`), CloudWatch's OTLP endpoint (`xray`). It
 * signs a URL with its method, headers and a body of text or bytes; a `Request`, or a body of any
 * other kind, would be signed for what it is not and is refused.
 */
export function sigV4Fetch({
  service,
  region,
  credentials,
  fetch: send = fetch,
}: SigV4FetchOptions): typeof fetch {
  const signer = new SignatureV4({ service, region, credentials, sha256: Sha256 });
  return async (input, init = {}) => {
    if (input instanceof Request) throw new TypeError('sigV4Fetch signs a URL and its init, not a Request.');
    const { body } = init;
    if (body != null && typeof body !== 'string' && !(body instanceof Uint8Array))
      throw new TypeError(
        `sigV4Fetch signs a body of text or bytes, received ${Object.prototype.toString.call(body)}.`,
      );
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const headers: Record<string, string> = { host: url.host };
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const signed = await signer.sign({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      ...(body == null ? {} : { body }),
    });
    return send(url, { ...init, method, headers: signed.headers });
  };
}
