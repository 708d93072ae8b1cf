import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentStepClient } from './agentstep-client.js';
import { AgentStepApiError } from './errors.js';

/** A request the stub server received. */
interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Answer = (request: Received, response: ServerResponse) => void;

let close: (() => void) | undefined;

afterEach(() => close?.());

/** A local HTTP server answering with `answers` in turn; the client pointed at it and what it received. */
async function stub(...answers: Answer[]) {
  const received: Received[] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
    received.push(entry);
    answers.shift()?.(entry, response);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  close = () => server.close().closeAllConnections();
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { client: new AgentStepClient({ baseUrl, token: async () => 'alice' }), received };
}

const json =
  (status: number, body: unknown): Answer =>
  (_, response) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('AgentStepClient', () => {
  it('start posts the turn as JSON with the bearer token and Idempotency-Key, and returns the 202 body', async () => {
    const accepted = { session: 's-1', turn: 't-1', status: 'running' };
    const { client, received } = await stub(json(202, accepted));
    expect(await client.start({ message: 'Hi', maxSteps: 3 }, { idempotencyKey: 'k-1' })).toEqual(accepted);
    expect(received).toMatchObject([
      {
        method: 'POST',
        url: '/sessions',
        headers: {
          authorization: 'Bearer alice',
          'content-type': 'application/json',
          'idempotency-key': 'k-1',
        },
        body: JSON.stringify({ message: 'Hi', maxSteps: 3 }),
      },
    ]);
  });

  it('cancel posts to the session cancel route and resolves on 202', async () => {
    const { client, received } = await stub(json(202, { session: 's/1', status: 'cancelling' }));
    await expect(client.cancel('s/1')).resolves.toBeUndefined();
    expect(received).toMatchObject([{ method: 'POST', url: '/sessions/s%2F1/cancel', body: '' }]);
  });

  it('cancel throws NoTurnRunning (409) as an AgentStepApiError', async () => {
    const refusal = { error: { code: 'NoTurnRunning', message: 'Session s-1 runs no turn.' } };
    const { client } = await stub(json(409, refusal));
    const cancel = client.cancel('s-1');
    await expect(cancel).rejects.toBeInstanceOf(AgentStepApiError);
    await expect(cancel).rejects.toMatchObject({ status: 409, code: 'NoTurnRunning', fields: undefined });
  });

  it('events pages with after and limit in the query', async () => {
    const { client, received } = await stub(json(200, { events: [], next: null }));
    expect(await client.events('s-1', { after: 4, limit: 2 })).toEqual({ events: [], next: null });
    expect(received[0]?.url).toBe('/sessions/s-1/events?after=4&limit=2');
  });

  it('stream resumes a closed connection with Last-Event-ID over HTTP', async () => {
    const user = { seq: 1, type: 'user', content: 'Hi', timestamp: 1 };
    const sse =
      (text: string): Answer =>
      (_, response) =>
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end(text);
    const { client, received } = await stub(
      sse(`id: 1\nevent: user\ndata: ${JSON.stringify(user)}\n\n`),
      sse(`event: done\ndata: ${JSON.stringify({ status: 'done', turn: 't-1' })}\n\n`),
    );
    const items = [];
    for await (const item of client.stream('s-1', { retryDelayMs: 0 })) items.push(item);
    expect(items).toEqual([
      { type: 'user', seq: 1, event: user },
      { type: 'done', status: 'done', turn: 't-1' },
    ]);
    expect(received.map((request) => request.headers['last-event-id'])).toEqual([undefined, '1']);
  });
});
