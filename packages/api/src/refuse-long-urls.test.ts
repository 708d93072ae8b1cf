import { describe, expect, it } from 'vitest';
import { createApi } from './create-api.js';
import { MAX_URL_LENGTH } from './refuse-long-urls.js';
import { singleTenant } from './tenants.js';
import { inMemoryApiDeps } from './testing/index.js';

const app = createApi(inMemoryApiDeps(singleTenant()));

describe('refuseLongUrls', () => {
  it('answers 414 UriTooLong, in the API’s shape, to a path and query over the limit', async () => {
    const path = `/sessions?after=${'a'.repeat(MAX_URL_LENGTH)}`;
    const response = await app.request(path);
    expect(response.status).toBe(414);
    expect(await response.json()).toEqual({
      error: {
        code: 'UriTooLong',
        message: `The URL's path and query are ${path.length} characters; the API reads at most ${MAX_URL_LENGTH}.`,
      },
    });
  });

  it('lets a path and query of exactly the limit through to the routes', async () => {
    const path = `/no-such-route/${'a'.repeat(MAX_URL_LENGTH - '/no-such-route/'.length)}`;
    expect(path.length).toBe(MAX_URL_LENGTH);
    expect((await app.request(path)).status).toBe(404);
  });
});
