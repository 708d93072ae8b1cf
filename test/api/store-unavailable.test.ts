import { createServer } from 'node:net';
import { createApi, singleTenant, storedSession } from '@agentstep/api';
import { inMemoryApiDeps } from '@agentstep/api/testing';
import { dynamoDbLocalClient } from '@agentstep/local';
import type { TurnAccepted } from '@agentstep/protocol';
import { endTurn } from '@agentstep/runtime';
import { dynamoStores, ensureEventLogTable } from '@agentstep/runtime/dynamo';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';

const TABLE = 'store-unavailable';

/** An address nothing listens on: a port the system gave out and took back. */
async function closedEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((settle) => server.listen(0, '127.0.0.1', settle));
  const { port } = server.address() as { port: number };
  await new Promise((settle) => server.close(settle));
  return `http://127.0.0.1:${port}`;
}

/** The API on DynamoDB Local, through a client the test can point at a store that is gone, and back. */
async function apiOnMovableStore() {
  let endpoint = dynamoEndpoint;
  const client = DynamoDBDocumentClient.from(dynamoDbLocalClient(() => endpoint));
  await ensureEventLogTable(client, TABLE);
  const deps = { ...inMemoryApiDeps(singleTenant()), ...dynamoStores(TABLE, client) };
  const app = createApi({ ...deps, pollMs: 10 });
  const gone = await closedEndpoint();
  return {
    app,
    deps,
    storeStops: () => {
      endpoint = gone;
    },
    storeReturns: () => {
      endpoint = dynamoEndpoint;
    },
  };
}

/** Reads a stream's frames until it ends, calling `onFrame` with all so far after each. */
async function readFrames(response: Response, onFrame: (frames: EventSourceMessage[]) => void = () => {}) {
  const frames: EventSourceMessage[] = [];
  const parser = createParser({
    onEvent: (frame) => {
      frames.push(frame);
      onFrame(frames);
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body ?? []) parser.feed(decoder.decode(chunk, { stream: true }));
  return frames;
}

describe.skipIf(dynamoEndpoint === '')(
  'the API while its store is unavailable (DynamoDB Local, then nothing)',
  () => {
    it('answers 503 StoreUnavailable with Retry-After, never a 500; the same request succeeds once the store is back', async () => {
      const { app, storeStops, storeReturns } = await apiOnMovableStore();
      const started = await app.request('/sessions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hi' }),
      });
      const { session } = (await started.json()) as TurnAccepted;
      storeStops();
      const refused = await app.request(`/sessions/${session}`);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toEqual({
        error: {
          code: 'StoreUnavailable',
          message: expect.stringMatching(/^The store is unavailable \(.*ECONNREFUSED/),
        },
      });
      const post = await app.request(`/sessions/${session}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Again' }),
      });
      expect(post.status).toBe(503);
      storeReturns();
      expect((await app.request(`/sessions/${session}`)).status).toBe(200);
    });

    it('an open stream ends with an `event: error` frame; resumed with Last-Event-ID, it loses and repeats nothing', async () => {
      const { app, deps, storeStops, storeReturns } = await apiOnMovableStore();
      const started = await app.request('/sessions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hi' }),
      });
      const { session, turn } = (await started.json()) as TurnAccepted;
      const stream = await app.request(`/sessions/${session}/stream`);
      // The store goes once the stream has sent the log it found.
      const frames = await readFrames(stream, (sent) => {
        if (sent.length === 1) storeStops();
      });
      expect(frames.map(({ id, event }) => [id, event])).toEqual([
        ['1', 'user'],
        [undefined, 'error'],
      ]);
      expect(JSON.parse(frames[1]?.data ?? '')).toEqual({
        error: { code: 'StoreUnavailable', message: expect.any(String) },
      });
      storeReturns();
      await endTurn(
        { session: storedSession('local', session), turn, status: 'done', message: 'Done.' },
        deps,
      );
      const resumed = await app.request(`/sessions/${session}/stream`, { headers: { 'last-event-id': '1' } });
      expect((await readFrames(resumed)).map(({ id, event }) => [id, event])).toEqual([
        ['2', 'turn_end'],
        [undefined, 'done'],
      ]);
    });
  },
);
