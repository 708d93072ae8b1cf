import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Writes one response; `body` is the request's. */
export type Reply = (response: ServerResponse, body: string) => void;

/** A loopback HTTP server that records each request body and answers with the next queued reply. */
export interface RecordingServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Request bodies, in arrival order. */
  bodies: string[];
  /** Replies for the next requests; `fallback` answers when none is queued. */
  replies: Reply[];
  /** Forgets the bodies and queued replies. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts a {@link RecordingServer} on 127.0.0.1, for tests of HTTP clients. */
export async function startRecordingServer(fallback: Reply): Promise<RecordingServer> {
  const bodies: string[] = [];
  const replies: Reply[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (part) => {
      body += part;
    });
    request.on('end', () => {
      bodies.push(body);
      (replies.shift() ?? fallback)(response, body);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    replies,
    reset: () => {
      bodies.length = 0;
      replies.length = 0;
    },
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
