import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { newProject, serveInProcess } from '../support/in-process.js';
import { type OidcIssuer, startOidcIssuer } from '../support/oidc-issuer.js';
import { chunkedUpload, sendRaw } from '../support/raw-http.js';
import type { Served } from '../support/serve-client.js';

const AUDIENCE = 'agentstep-api';
const MIB = 1024 * 1024;

/** `--auth none` (the default), answering the name agentstep.test too. */
let open: Served;
/** `--auth jwt` with tokens of a real OIDC issuer on this machine. */
let jwt: Served;
let issuer: OidcIssuer;

/** One request to `served` on a connection of its own, with exactly these headers. */
const send = (served: Served, path: string, options: Parameters<typeof sendRaw>[1] = {}) =>
  sendRaw(`${served.url}${path}`, options);

const port = (served: Served) => new URL(served.url).port;

describe.skipIf(dynamoEndpoint === '')('the HTTP edges of `agentstep serve` (in-process)', () => {
  beforeAll(async () => {
    issuer = await startOidcIssuer();
    // The issuer serves its discovery document and keys once a client is registered.
    await issuer.register('agentstep-test', 'http://127.0.0.1/');
    open = await serveInProcess(newProject('edges'), ['--allowed-hosts', 'agentstep.test']);
    jwt = await serveInProcess(newProject('edges-jwt'), [
      '--auth',
      'jwt',
      '--jwt-issuer',
      issuer.issuer,
      '--jwt-audience',
      AUDIENCE,
    ]);
  });

  afterAll(async () => {
    expect(await Promise.all([open?.stop(), jwt?.stop()])).toEqual([0, 0]);
    await issuer?.stop();
  });

  it('refuses Host: evil.example with 421 in the API’s shape and starts nothing (DNS rebinding)', async () => {
    const refused = await send(open, '/sessions', {
      method: 'POST',
      headers: { host: `evil.example:${port(open)}` },
      json: { message: 'Hi' },
    });
    expect(refused).toMatchObject({
      status: 421,
      body: { error: { code: 'MisdirectedRequest', message: expect.stringContaining('--allowed-hosts') } },
    });
    const listed = await send(open, '/sessions', { headers: { host: `127.0.0.1:${port(open)}` } });
    expect(listed).toMatchObject({ status: 200, body: { sessions: [] } });
  });

  it('answers its address, localhost and [::1] with its port, and the --allowed-hosts names', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]', 'agentstep.test'])
      expect((await send(open, '/sessions', { headers: { host: `${host}:${port(open)}` } })).status).toBe(
        200,
      );
  });

  it.each([
    ['another name', 'evil.example'],
    ['its address with another port', '127.0.0.1:1'],
    ['a name under an allowed one', 'www.agentstep.test'],
  ])('refuses %s with 421, on every path', async (_, host) => {
    for (const path of ['/', '/sessions'])
      expect((await send(open, path, { headers: { host } })).status).toBe(421);
  });

  it('refuses a path and query over 8 KiB with 414 UriTooLong', async () => {
    const { status, body } = await send(open, `/sessions?after=${'a'.repeat(9 * 1024)}`);
    expect({ status, body }).toMatchObject({ status: 414, body: { error: { code: 'UriTooLong' } } });
  });

  it('refuses headers over 16 KiB with 431, as Node’s server does', async () => {
    const { status } = await send(open, '/sessions', { headers: { 'x-padding': 'a'.repeat(20 * 1024) } });
    expect(status).toBe(431);
  });

  it('refuses a chunked body over 256 KB without credentials with 413 before 1 MiB, and closes the connection', async () => {
    const { answer, sent } = await chunkedUpload(`${jwt.url}/sessions`, { total: 300 * MIB, pauseAt: MIB });
    expect(answer).toMatchObject({
      status: 413,
      headers: { connection: 'close' },
      body: { error: { code: 'PayloadTooLarge' } },
    });
    expect(sent).toBeLessThanOrEqual(MIB);
  });

  describe('with --auth jwt', () => {
    const claims = () => ({
      iss: issuer.issuer,
      aud: AUDIENCE,
      sub: 'alice',
      exp: Math.floor(Date.now() / 1000) + 300,
    });
    const asBearer = async (token: Promise<string>) => ({ authorization: `Bearer ${await token}` });

    it('lets a token of the issuer in as its sub', async () => {
      const headers = await asBearer(issuer.sign(claims()));
      expect(await send(jwt, '/sessions', { headers })).toMatchObject({
        status: 200,
        body: { sessions: [] },
      });
    });

    it.each([
      ['no exp', { exp: undefined }, 'The token has no exp claim.'],
      ['sub: 123', { sub: 123 }, 'The token’s sub must be a non-empty string.'],
      ['sub: ""', { sub: '' }, 'The token’s sub must be a non-empty string.'],
    ])('refuses a token with %s with 401 and the reason', async (_, changes, reason) => {
      const headers = await asBearer(issuer.sign({ ...claims(), ...changes }));
      expect(await send(jwt, '/sessions', { headers })).toMatchObject({
        status: 401,
        body: {
          error: {
            code: 'Unauthorized',
            message: `This request’s credentials were refused: ${reason} Sign in again.`,
          },
        },
      });
    });
  });
});
