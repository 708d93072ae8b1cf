import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { serveScriptInProcess } from '../support/in-process.js';
import type { Served } from '../support/serve-client.js';

const APP = 'http://localhost:5173';

let served: Served;

/** A browser's preflight of `POST /sessions` from `origin`: no credentials. */
const preflight = (origin: string) =>
  fetch(`${served.url}/sessions`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });

describe.skipIf(dynamoEndpoint === '')('`agentstep serve --cors` over HTTP (in-process)', () => {
  beforeAll(async () => {
    served = await serveScriptInProcess(
      'cors',
      ['Hello.<end>'],
      ['--cors', `${APP},https://app.example.com`],
    );
  });

  afterAll(async () => {
    expect(await served?.stop()).toBe(0);
  });

  it('answers a listed origin’s preflight with 204 before any credentials (--auth dev)', async () => {
    const response = await preflight(APP);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,POST,DELETE');
    expect(response.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it('names the origin on a turn’s answer and on its stream', async () => {
    const headers = { origin: APP, authorization: 'Bearer alice' };
    const started = await fetch(`${served.url}/sessions`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Hi' }),
    });
    expect(started.status).toBe(202);
    expect(started.headers.get('access-control-allow-origin')).toBe(APP);
    const { session } = (await started.json()) as { session: string };
    const stream = await fetch(`${served.url}/sessions/${session}/stream`, { headers });
    expect(stream.headers.get('access-control-allow-origin')).toBe(APP);
    expect(await stream.text()).toContain('event: turn_end');
  });

  it('gives an origin not listed no CORS header', async () => {
    const response = await preflight('https://evil.example.com');
    expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});
