import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';
import {
  type AgentExecutor,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
} from '@a2a-js/sdk/server';

/** One request an {@link A2aTestServer} received. */
export interface A2aTestRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A remote A2A agent for tests, written with `@a2a-js/sdk`'s own server. */
export interface A2aTestServer {
  /** Its base URL: its card is at `/.well-known/agent-card.json`. */
  url: string;
  close(): Promise<void>;
}

/** How an {@link A2aTestServer} describes itself, and who hears its requests. */
export interface A2aTestServerOptions {
  /** Whether its card says it streams. @default true */
  streaming?: boolean;
  /** Where its card says its JSON-RPC binding is (`/rpc` under it). @default its own address */
  rpcBase?: string;
  /** Sees each request as it arrives, the card's included. */
  onRequest?: (request: A2aTestRequest) => void;
}

/**
 * `@a2a-js/sdk`'s server (its `DefaultRequestHandler` over an in-memory task store and its JSON-RPC
 * binding, mounted on `node:http` on port 0 as its express handler would be) running `executor`.
 */
export async function startA2aTestServer(
  executor: AgentExecutor,
  { streaming = true, rpcBase, onRequest }: A2aTestServerOptions = {},
): Promise<A2aTestServer> {
  let card: object | undefined;
  let rpc: JsonRpcTransportHandler | undefined;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    onRequest?.({ path: request.url ?? '', headers: request.headers, body });
    if (request.url === '/.well-known/agent-card.json') return void response.end(JSON.stringify(card));
    const context = new ServerCallContext({ requestedVersion: request.headers['a2a-version'] as string });
    const out = await rpc?.handle(body, context);
    if (out === undefined || !(Symbol.asyncIterator in out))
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    response.writeHead(200, SSE_HEADERS);
    for await (const event of out) response.write(formatSSEEvent(event));
    response.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  card = {
    name: 'Test agent',
    description: 'An agent written with @a2a-js/sdk.',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${rpcBase ?? url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'answer', name: 'Answer', description: 'Answers.', tags: ['answer'] }],
  };
  const handler = new DefaultRequestHandler(AgentCard.fromJSON(card), new InMemoryTaskStore(), executor);
  rpc = new JsonRpcTransportHandler(handler);
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
