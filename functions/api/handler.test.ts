import { Writable } from 'node:stream';
import { authorizerTenant, storedSession } from '@agentstep/api';
import { inMemoryApiDeps, restApiEvent } from '@agentstep/api/testing';
import type { TurnAccepted } from '@agentstep/protocol';
import { endTurn } from '@agentstep/runtime';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from './handler.js';

/**
 * Lambda's streaming globals as the Node.js runtime provides them: a streamified handler is called
 * with a response stream, and `HttpResponseStream.from` writes the JSON prelude API Gateway reads
 * (status and headers) and eight zero bytes before the body.
 */
const awslambda = {
  streamifyResponse: <T>(handler: T) => handler,
  HttpResponseStream: {
    from(stream: Writable, metadata: unknown) {
      stream.write(JSON.stringify(metadata));
      stream.write(new Uint8Array(8));
      return stream;
    },
  },
};
type Global = { awslambda?: typeof awslambda };
beforeAll(() => {
  (globalThis as Global).awslambda = awslambda;
});
afterAll(() => {
  delete (globalThis as Global).awslambda;
});

type StreamingHandler = (event: APIGatewayProxyEvent, stream: Writable, context: Context) => Promise<void>;

/** A REST API proxy event, as API Gateway sends it once its authorizer let `sub` through. */
function gatewayEvent(method: string, path: string, sub: string | undefined, body?: unknown) {
  const json = body === undefined ? null : JSON.stringify(body);
  return restApiEvent({
    method,
    path,
    ...(sub === undefined ? {} : { sub }),
    body: json,
  }) as unknown as APIGatewayProxyEvent;
}

/** Runs the handler on an event; returns the prelude and the body it streamed. */
async function invoke(handler: StreamingHandler, event: APIGatewayProxyEvent) {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  await handler(event, stream, { awsRequestId: 'r-1' } as Context);
  const bytes = Buffer.concat(chunks);
  const end = bytes.indexOf(Buffer.alloc(8));
  return {
    prelude: JSON.parse(bytes.subarray(0, end).toString()) as {
      statusCode: number;
      headers: Record<string, string>;
    },
    body: bytes.subarray(end + 8).toString(),
  };
}

describe('the API function (hono/aws-lambda streamHandle over createApi)', () => {
  const deps = inMemoryApiDeps(authorizerTenant);
  const handler = () => createHandler({ ...deps, pollMs: 10 }) as unknown as StreamingHandler;

  it('starts a session for the authorizer’s sub and answers 202 in the streaming prelude', async () => {
    const { prelude, body } = await invoke(
      handler(),
      gatewayEvent('POST', '/sessions', 'alice', { message: 'Hi' }),
    );
    expect(prelude).toMatchObject({ statusCode: 202, headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(body)).toMatchObject({ status: 'running' });
  });

  it('streams a session’s events as server-sent events, then done', async () => {
    const started = await invoke(handler(), gatewayEvent('POST', '/sessions', 'alice', { message: 'Hi' }));
    const { session, turn } = JSON.parse(started.body) as TurnAccepted;
    await endTurn({ session: storedSession('alice', session), turn, status: 'done', message: 'Done.' }, deps);
    const { prelude, body } = await invoke(
      handler(),
      gatewayEvent('GET', `/sessions/${session}/stream`, 'alice'),
    );
    expect(prelude).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/event-stream' } });
    expect(body.split('\n').filter((line) => line.startsWith('event: '))).toEqual([
      'event: user',
      'event: turn_end',
      'event: done',
    ]);
  });

  it('names a CORS origin of AGENTSTEP_CORS_ORIGINS on its answers and refusals', async () => {
    const app = 'https://app.example.com';
    const withCors = () => createHandler({ ...deps, corsOrigins: [app] }) as unknown as StreamingHandler;
    for (const sub of ['alice', undefined]) {
      const event = gatewayEvent('POST', '/sessions', sub, { message: 'Hi' });
      event.headers.Origin = app;
      const { prelude } = await invoke(withCors(), event);
      expect(prelude).toMatchObject({
        statusCode: sub ? 202 : 401,
        headers: { 'access-control-allow-origin': app, vary: 'Origin' },
      });
    }
  });

  it('answers 401 when the event carries no authorizer verdict', async () => {
    const { prelude, body } = await invoke(
      handler(),
      gatewayEvent('POST', '/sessions', undefined, { message: 'Hi' }),
    );
    expect(prelude.statusCode).toBe(401);
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'Unauthorized' } });
  });
});
