import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createServer as createHttp2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
  constants as http2,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';

/** One recorded response: its status, headers and body frames, each written as its own chunk. */
export interface Recording {
  /** @default 200 */
  status?: number;
  headers?: Record<string, string>;
  frames: readonly (string | Uint8Array)[];
  /** Ends the connection (HTTP/1.1) or resets the stream (HTTP/2) after the frames: a cut mid-stream. */
  cut?: boolean;
}

/** A loopback server that answers each request with the next queued {@link Recording}. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Responses for the next requests, in order; a request with none left gets a 500 saying so. */
  recordings: Recording[];
  /** Request bodies, in arrival order. */
  bodies: string[];
  close(): Promise<void>;
}

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

/**
 * Starts a {@link ReplayServer} on 127.0.0.1 that writes recorded responses byte for byte: over
 * HTTP/1.1 with chunked transfer (OpenAI, Anthropic, OpenAI-compatible services), or over cleartext
 * HTTP/2 (`http2: true`), as the Bedrock client refuses HTTP/1.1.
 */
export async function startReplayServer(options: { http2?: boolean } = {}): Promise<ReplayServer> {
  const recordings: Recording[] = [];
  const bodies: string[] = [];
  const answer = (request: Request, response: Response) => {
    let body = '';
    request.on('data', (part: Buffer) => {
      body += part;
    });
    request.on('end', () => {
      bodies.push(body);
      replay(response, recordings.shift());
    });
  };
  const server = options.http2 ? createHttp2Server(answer) : createHttpServer(answer);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    recordings,
    bodies,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

function replay(response: Response, recording: Recording | undefined): void {
  if (recording === undefined) {
    response.writeHead(500, { 'content-type': 'text/plain' });
    response.end('The replay server has no recording queued for this request.');
    return;
  }
  response.writeHead(recording.status ?? 200, recording.headers ?? {});
  for (const frame of recording.frames) (response as Writable).write(frame);
  if (!recording.cut) response.end();
  else if ('stream' in response) response.stream.close(http2.NGHTTP2_INTERNAL_ERROR);
  else response.destroy();
}
