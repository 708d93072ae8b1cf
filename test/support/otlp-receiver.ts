import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** One OTLP/HTTP export a receiver got: its content type and body, and every header it came with. */
export interface ReceivedExport {
  contentType: string;
  body: Buffer;
  headers: IncomingHttpHeaders;
}

/** An attribute as OTLP/JSON carries it. */
interface JsonAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean; arrayValue?: unknown };
}

/** A span as OTLP/JSON carries it. */
export interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: JsonAttribute[];
  events?: Array<{ name: string }>;
  links?: Array<{ traceId: string; spanId: string }>;
  status?: { code?: number; message?: string };
}

/** A local OTLP/HTTP receiver (as a collector's `otlphttp` receiver listens): it keeps what it gets at `/v1/traces`. */
export class OtlpReceiver {
  readonly exports: ReceivedExport[] = [];
  readonly #server: Server;
  readonly url: Promise<string>;

  constructor() {
    this.#server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(Buffer.from(chunk));
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const contentType = String(request.headers['content-type']);
      this.exports.push({ contentType, body: Buffer.concat(chunks), headers: request.headers });
      response.writeHead(200, { 'content-type': contentType }).end(contentType.includes('json') ? '{}' : '');
    });
    this.url = new Promise((settle) =>
      this.#server.listen(0, '127.0.0.1', () => {
        const address = this.#server.address();
        settle(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
      }),
    );
  }

  /** The spans of every OTLP/JSON export so far, with the service that sent each. */
  jsonSpans(): Array<JsonSpan & { service: string }> {
    return this.exports
      .filter(({ contentType }) => contentType.includes('json'))
      .flatMap(({ body }) => {
        const { resourceSpans } = JSON.parse(body.toString('utf8')) as {
          resourceSpans: Array<{
            resource: { attributes: JsonAttribute[] };
            scopeSpans: Array<{ spans: JsonSpan[] }>;
          }>;
        };
        return resourceSpans.flatMap(({ resource, scopeSpans }) => {
          const service =
            resource.attributes.find(({ key }) => key === 'service.name')?.value.stringValue ?? '';
          return scopeSpans.flatMap(({ spans }) => spans.map((span) => ({ ...span, service })));
        });
      });
  }

  async close(): Promise<void> {
    const closed = new Promise((settle) => this.#server.close(settle));
    this.#server.closeAllConnections();
    await closed;
  }
}
