import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type GatewayRequest, restApiEvent } from '@agentstep/api/testing';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';

/** Invokes the API function with a proxy event, handing on each chunk of its streamed response. */
export type StreamingInvoke = (event: unknown, onChunk: (chunk: Buffer) => void) => Promise<unknown>;

/** The principals that may call the API: each access key's secret and the IAM ARN it signs as. */
export type Principals = ReadonlyMap<string, { secret: string; arn: string }>;

/** The stage the API's URL ends in (`ApiUrl` is `https://…/prod/`). */
const STAGE = '/prod';

/** The eight zero bytes between a streamed response's JSON prelude (status, headers) and its body. */
const PRELUDE_END = Buffer.alloc(8);

/**
 * API Gateway's REST API in front of the API function, in response-streaming mode, with IAM
 * authorization: each request under `/prod` must be SigV4-signed for `execute-api` in us-east-1 by
 * one of `principals` (its signature checked by recomputing it, as API Gateway does, else 403), is
 * handed to the function as the proxy event of that principal, and its response streamed back as
 * the function writes it.
 */
export class ApiGatewayFront {
  readonly #server: Server;
  readonly url: Promise<string>;

  constructor(invoke: StreamingInvoke, principals: Principals) {
    this.#server = createServer((request, response) => {
      answer(request, response, invoke, principals).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: error instanceof Error ? error.message : String(error) }));
      });
    });
    this.url = new Promise((settle) =>
      this.#server.listen(0, '127.0.0.1', () => {
        const address = this.#server.address();
        settle(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${STAGE}/`);
      }),
    );
  }

  /** Stops listening; streams still open are cut. */
  async close(): Promise<void> {
    const closed = new Promise((settle) => this.#server.close(settle));
    this.#server.closeAllConnections();
    await closed;
  }
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  invoke: StreamingInvoke,
  principals: Principals,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://front');
  const body = await bodyOf(request);
  // API Gateway's own refusals, in the shape the construct's gateway responses give them.
  if (!url.pathname.startsWith(`${STAGE}/`))
    return refuse(response, 401, 'Unauthorized', 'Missing Authentication Token');
  const caller = await signerOf(request, url, body, principals);
  if (caller === undefined)
    return refuse(
      response,
      403,
      'INVALID_SIGNATURE',
      'The request signature we calculated does not match the signature you provided.',
    );
  const headers = Object.fromEntries(
    Object.entries(request.headers).flatMap(([name, value]) =>
      typeof value === 'string' ? [[name, value]] : [],
    ),
  );
  // As API Gateway says how it was reached: here over plain HTTP.
  headers['x-forwarded-proto'] = 'http';
  const gatewayRequest: GatewayRequest = {
    method: request.method ?? 'GET',
    path: url.pathname.slice(STAGE.length),
    caller,
    body: body === '' ? null : body,
    headers,
    query: url.searchParams,
  };
  const relay = new StreamRelay(response);
  await invoke(restApiEvent(gatewayRequest), (chunk) => relay.write(chunk));
  response.end();
}

/** Writes a streamed response on: its prelude as the status line and headers, the rest as the body. */
class StreamRelay {
  #prelude: Buffer | undefined = Buffer.alloc(0);
  constructor(readonly response: ServerResponse) {}

  write(chunk: Buffer): void {
    if (this.#prelude === undefined) {
      this.response.write(chunk);
      return;
    }
    const read = Buffer.concat([this.#prelude, chunk]);
    const end = read.indexOf(PRELUDE_END);
    if (end === -1) {
      this.#prelude = read;
      return;
    }
    const { statusCode, headers } = JSON.parse(read.subarray(0, end).toString('utf8')) as {
      statusCode: number;
      headers?: Record<string, string>;
    };
    this.#prelude = undefined;
    this.response.writeHead(statusCode, headers);
    const rest = read.subarray(end + PRELUDE_END.length);
    if (rest.length > 0) this.response.write(rest);
  }
}

/** The ARN of the principal whose SigV4 signature the request carries, when it is right. */
async function signerOf(
  request: IncomingMessage,
  url: URL,
  body: string,
  principals: Principals,
): Promise<string | undefined> {
  const authorization = String(request.headers.authorization ?? '');
  const scope =
    /Credential=([^/]+)\/\d{8}\/us-east-1\/execute-api\/aws4_request, SignedHeaders=([^,]+),/.exec(
      authorization,
    );
  const principal = principals.get(scope?.[1] ?? '');
  const date = String(request.headers['x-amz-date'] ?? '');
  if (!scope || principal === undefined || !/^\d{8}T\d{6}Z$/.test(date)) return undefined;
  const signed = (scope[2] ?? '').split(';');
  const headers = Object.fromEntries(signed.map((name) => [name, String(request.headers[name] ?? '')]));
  const signer = new SignatureV4({
    service: 'execute-api',
    region: 'us-east-1',
    credentials: { accessKeyId: scope[1] ?? '', secretAccessKey: principal.secret },
    sha256: Sha256,
  });
  const again = await signer.sign(
    {
      method: request.method ?? 'GET',
      protocol: 'http:',
      hostname: url.hostname,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
    },
    { signingDate: isoDate(date), signableHeaders: new Set(signed) },
  );
  return again.headers.authorization === authorization ? principal.arn : undefined;
}

/** `20261129T120000Z` as a Date. */
function isoDate(compact: string): Date {
  const [, y, mo, d, h, mi, s] = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(compact) ?? [];
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
}

function refuse(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { code, message } }));
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
