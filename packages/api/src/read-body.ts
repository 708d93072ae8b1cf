import type { Context } from 'hono';
import type * as z from 'zod';
import { ApiError, validationError } from './api-error.js';

/** The largest request body the API reads. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The request's JSON body, checked against `schema`: 415 unless it is JSON, 413 over
 * {@link MAX_BODY_BYTES}, 400 when it does not parse or does not validate (each problem in `fields`).
 */
export async function readBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
): Promise<z.infer<Schema>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type))
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      'Send the body as JSON, with Content-Type: application/json.',
    );
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
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

function tooLarge(): ApiError {
  return new ApiError(413, 'PayloadTooLarge', `The body is over ${MAX_BODY_BYTES} bytes.`);
}
