import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ApiError } from './api-error.js';
import { MAX_BODY_BYTES, readBody } from './read-body.js';

/** One route that reads a `{"message"}` body and answers it back; refusals in the API's shape. */
const app = new Hono();
app.post('/', async (c) => c.json(await readBody(c, z.object({ message: z.string() }))));
app.onError((error, c) => {
  if (error instanceof ApiError) return c.json(error.body(), error.status);
  throw error;
});

const CHUNK_BYTES = 64 * 1024;

/**
 * A body of `total` bytes sent in chunks with no Content-Length (as `Transfer-Encoding: chunked`
 * arrives), made only as it is pulled: `pulled()` says how many bytes the reader asked for.
 */
function countedBody(total: number) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = Math.min(CHUNK_BYTES, total - pulled);
      if (size === 0) return controller.close();
      pulled += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
  return { stream, pulled: () => pulled };
}

async function post(body: RequestInit['body'], headers: Record<string, string> = {}) {
  const response = await app.request('/', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, body: await response.json() };
}

describe('readBody', () => {
  it('refuses a chunked body over the cap with 413 as it passes the cap, never reading the rest', async () => {
    const body = countedBody(300 * 1024 * 1024);
    expect(await post(body.stream)).toEqual({
      status: 413,
      body: { error: { code: 'PayloadTooLarge', message: `The body is over ${MAX_BODY_BYTES} bytes.` } },
    });
    // The cap, the chunk that passed it and at most one the stream made ahead of the reader.
    expect(body.pulled()).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * CHUNK_BYTES);
  });

  it('refuses a body whose Content-Length is over the cap with 413 before reading it', async () => {
    const body = countedBody(MAX_BODY_BYTES + 1);
    const { status } = await post(body.stream, { 'content-length': String(MAX_BODY_BYTES + 1) });
    expect(status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(CHUNK_BYTES);
  });

  it('reads a chunked body of exactly the cap', async () => {
    const json = JSON.stringify({ message: '' });
    const message = 'x'.repeat(MAX_BODY_BYTES - json.length);
    const text = JSON.stringify({ message });
    expect(new TextEncoder().encode(text).byteLength).toBe(MAX_BODY_BYTES);
    const chunks = [text.slice(0, 1000), text.slice(1000)].map((part) => new TextEncoder().encode(part));
    const stream = new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    expect(await post(stream)).toEqual({ status: 200, body: { message } });
  });

  it('reads JSON split inside a multi-byte character across chunks', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ message: 'ünïcödé' }));
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(bytes.slice(0, 16));
        controller.enqueue(bytes.slice(16));
        controller.close();
      },
    });
    expect(await post(stream)).toEqual({ status: 200, body: { message: 'ünïcödé' } });
  });
});
