import type { Context } from 'hono';
import type * as z from 'zod';
import { ApiError, validationError } from './api-error.js';

/** The largest request body the API reads. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The largest body of the routes of front-end protocols (`POST /chat`, `POST /ag-ui`): their
 * clients send the whole conversation each time, of which only the newest message is read.
 */
export const MAX_CONVERSATION_BODY_BYTES = 4 * 1024 * 1024;

/** How much of a body {@link readBody} reads. */
export interface BodyLimit {
  /** @default {@link MAX_BODY_BYTES} */
  maxBytes?: number;
}

/**
 * The request's JSON body, checked against `schema`: 415 unless it is JSON, 413 over `maxBytes`
 * (refused as the bytes arrive: a body that passes the cap, chunked or not,
 * is never read further), 400 when it does not parse or does not validate (each problem in `fields`).
 */
export async function readBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
  { maxBytes = MAX_BODY_BYTES }: BodyLimit = {},
): Promise<z.infer<Schema>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type))
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      'Send the body as JSON, with Content-Type: application/json.',
    );
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readCapped(c.req.raw.body, maxBytes);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new ApiError(400, 'InvalidJson', `The body is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw validationError('body', parsed.error);
}

/**
 * The body's bytes, counted chunk by chunk: the read stops, and the stream is cancelled, at the cap
 * (413 `PayloadTooLarge`).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array> {
  if (body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    length += read.value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'PayloadTooLarge', `The body is over ${maxBytes} bytes.`);
}
