import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';

/** The longest path and query string the API reads, in characters (no route needs a tenth of it). */
export const MAX_URL_LENGTH = 8 * 1024;

/**
 * Refuses a request whose path and query string together are over {@link MAX_URL_LENGTH} with
 * `414 UriTooLong`, before anything else reads them.
 */
export const refuseLongUrls: MiddlewareHandler = async (c, next) => {
  const { pathname, search } = new URL(c.req.url);
  const length = pathname.length + search.length;
  if (length > MAX_URL_LENGTH)
    throw new ApiError(
      414,
      'UriTooLong',
      `The URL's path and query are ${length} characters; the API reads at most ${MAX_URL_LENGTH}.`,
    );
  await next();
};
