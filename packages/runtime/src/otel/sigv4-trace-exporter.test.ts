import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogSpan } from '../traces/log-span.js';
import { cloudWatchTraceExporter } from './cloud-watch-trace-exporter.js';
import { readableSpans } from './readable-spans.js';
import { SigV4TraceExporter } from './sigv4-trace-exporter.js';

const credentials = {
  accessKeyId: 'AKIDEXPORTER',
  secretAccessKey: 'exporter-secret',
  sessionToken: 'token',
};

/** A turn's span, as derived from a log. */
const span: LogSpan = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  name: 'invoke_agent helper',
  kind: 'internal',
  startMs: 1_700_000_000_000,
  endMs: 1_700_000_001_500,
  attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'helper' },
  events: [],
  links: [],
  status: { code: 'unset' },
};
const spans = readableSpans([span], resourceFromAttributes({ 'service.name': 'agentstep' }));

/** One request the endpoint got. */
interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A local endpoint answering every request with `status` and `body`, keeping what it got. */
function endpoint(status = 200, body: Uint8Array = new Uint8Array()) {
  const received: Received[] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(Buffer.from(chunk));
    received.push({
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body: Buffer.concat(chunks),
    });
    response.writeHead(status, { 'content-type': 'application/x-protobuf' }).end(body);
  });
  const url = new Promise<string>((settle) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      settle(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );
  servers.push(server);
  return { received, url };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((settle) => server.close(settle))));
});

function exported(exporter: SigV4TraceExporter | Awaited<ReturnType<typeof cloudWatchTraceExporter>>) {
  return new Promise<ExportResult>((settle) => exporter.export(spans, settle));
}

/** The signature a request would carry, signed again with `credentials` for `service` in us-east-1. */
async function signatureOf({ method, path, headers, body }: Received, url: URL, service: string) {
  const authorization = String(headers.authorization);
  const signedHeaders = /SignedHeaders=([^,]+),/.exec(authorization)?.[1]?.split(';') ?? [];
  const date = String(headers['x-amz-date']);
  const signingDate = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  const signer = new SignatureV4({ service, region: 'us-east-1', credentials, sha256: Sha256 });
  const again = await signer.sign(
    {
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: Number(url.port),
      path,
      headers: Object.fromEntries(signedHeaders.map((name) => [name, String(headers[name])])),
      body: new Uint8Array(body),
    },
    { signingDate, signableHeaders: new Set(signedHeaders) },
  );
  return again.headers.authorization;
}

describe('SigV4TraceExporter', () => {
  it('posts the spans as OTLP protobuf to the URL, signed with SigV4 for xray in its region', async () => {
    const { received, url } = endpoint();
    const base = new URL(await url);
    const exporter = new SigV4TraceExporter({
      url: `${base.href}v1/traces`,
      region: 'us-east-1',
      credentials,
    });
    expect(await exported(exporter)).toEqual({ code: ExportResultCode.SUCCESS });
    const [request] = received;
    if (request === undefined) throw new Error('The endpoint got no request.');
    expect(request).toMatchObject({ method: 'POST', path: '/v1/traces' });
    expect(request.headers['content-type']).toBe('application/x-protobuf');
    expect(request.headers['x-amz-security-token']).toBe('token');
    expect(String(request.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXPORTER\/\d{8}\/us-east-1\/xray\/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$/,
    );
    expect(await signatureOf(request, base, 'xray')).toBe(request.headers.authorization);
    expect(await signatureOf(request, base, 'execute-api')).not.toBe(request.headers.authorization);
    // The body is the SDK's own OTLP protobuf of the spans, the trace id's bytes in it.
    expect(request.body.equals(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) ?? []))).toBe(
      true,
    );
    expect(request.body.includes(Buffer.from(span.traceId, 'hex'))).toBe(true);
  });

  it('fails the export with what the endpoint answered and what to check', async () => {
    const { url } = endpoint(403, new TextEncoder().encode('{"message":"not authorized"}'));
    const exporter = new SigV4TraceExporter({
      url: `${await url}/v1/traces`,
      region: 'us-east-1',
      credentials,
      whatToDo: 'Check the role.',
    });
    const result = await exported(exporter);
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(result.error?.message).toBe(
      `${await url}/v1/traces answered 403: {"message":"not authorized"}. Check the role.`,
    );
  });

  it('fails the export when the answer says spans were rejected (OTLP partial success)', async () => {
    // ExportTraceServiceResponse { partial_success { rejected_spans: 1, error_message: "too old" } }
    const partial = [0x08, 0x01, 0x12, 0x07, ...new TextEncoder().encode('too old')];
    const { url } = endpoint(200, new Uint8Array([0x0a, partial.length, ...partial]));
    const exporter = new SigV4TraceExporter({
      url: `${await url}/v1/traces`,
      region: 'us-east-1',
      credentials,
    });
    const result = await exported(exporter);
    expect(result.error?.message).toBe(`${await url}/v1/traces rejected 1 of 1 spans: too old.`);
  });
});

describe('cloudWatchTraceExporter', () => {
  it('sends to the endpoint AWS_ENDPOINT_URL_XRAY names, signed for xray in the region, saying what CloudWatch needs when refused', async () => {
    const { received, url } = endpoint(400);
    const exporter = await cloudWatchTraceExporter({
      region: 'us-east-1',
      credentials,
      env: { AWS_ENDPOINT_URL_XRAY: `${await url}/` },
    });
    const result = await exported(exporter);
    expect(received.map(({ path }) => path)).toEqual(['/v1/traces']);
    expect(String(received[0]?.headers.authorization)).toContain('/us-east-1/xray/aws4_request');
    expect(result.error?.message).toMatch(/Transaction Search .* xray:PutTraceSegments\.$/);
  });
});
