import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTool } from '../tools/run-tool.js';
import { type HttpFetchOptions, httpFetchTool } from './http-fetch-tool.js';

const context = { session: 's', turn: 't', batch: 'b', position: 0 };
let server: Server;
let port = 0;
/** What the server was sent at `/echo`: method, Idempotency-Key, content type and body. */
const received: Array<{
  method: string | undefined;
  key: string | undefined;
  type: string | undefined;
  body: string;
}> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const routes: Record<string, () => void> = {
      '/echo': () => {
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          const header = (name: string) => request.headers[name] as string | undefined;
          received.push({
            method: request.method,
            key: header('idempotency-key'),
            type: header('content-type'),
            body,
          });
          response.writeHead(201, { 'content-type': 'text/plain' }).end('stored');
        });
      },
      '/big': () => response.end('x'.repeat(2 * 1024 * 1024)),
      '/slow': () => setTimeout(() => response.end('late'), 2_000).unref(),
      '/hop': () => response.writeHead(302, { location: '/hello' }).end(),
      '/away': () => response.writeHead(302, { location: 'http://evil.test/' }).end(),
    };
    const route = routes[request.url ?? ''];
    if (route) route();
    else response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello 🙂');
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

/** The tool allowed to reach this test's loopback server as docs.test, and nothing else private. */
function fetchTool(overrides: Partial<HttpFetchOptions> = {}) {
  return httpFetchTool({
    allowHosts: ['docs.test', '*.example.com'],
    resolve: async (host) =>
      host === 'docs.test'
        ? [{ address: '127.0.0.1', family: 4 }]
        : [{ address: '93.184.215.14', family: 4 }],
    allowAddresses: ['127.0.0.1'],
    ...overrides,
  });
}

const fetchUrl = (url: string, overrides?: Partial<HttpFetchOptions>) =>
  runTool(fetchTool(overrides), { url }, context);

describe('http_fetch', () => {
  it('fetches an allowed URL: status, content type and text', async () => {
    expect(await fetchUrl(`http://docs.test:${port}/hello`)).toEqual({
      tool: 'http_fetch',
      status: 'success',
      content: { status: 200, content_type: 'text/plain; charset=utf-8', body: 'hello 🙂' },
    });
  });

  it('follows a redirect to an allowed place, checking it again', async () => {
    expect(await fetchUrl(`http://docs.test:${port}/hop`)).toMatchObject({
      status: 'success',
      content: { body: 'hello 🙂' },
    });
  });

  it('refuses a redirect to a host that is not allowed', async () => {
    expect(await fetchUrl(`http://docs.test:${port}/away`)).toEqual({
      tool: 'http_fetch',
      status: 'failure',
      content: 'evil.test is not an allowed host. Allowed: docs.test, *.example.com.',
    });
  });

  it('cuts the body at the size cap and says so', async () => {
    const outcome = await fetchUrl(`http://docs.test:${port}/big`, { maxBytes: 1000 });
    expect(outcome.content).toMatchObject({ status: 200, truncated: true });
    expect((outcome.content as { body: string }).body).toHaveLength(1000);
  });

  it('stops at the time cap', async () => {
    expect(await fetchUrl(`http://docs.test:${port}/slow`, { timeoutMs: 100 })).toMatchObject({
      status: 'failure',
      content: `docs.test:${port} did not answer within 100 ms.`,
    });
  });

  it.each([
    ['ftp://docs.test/file', 'Only http and https URLs can be fetched, not ftp.'],
    ['file:///etc/passwd', 'Only http and https URLs can be fetched, not file.'],
    ['not a url', '"not a url" is not an absolute URL.'],
    ['http://other.test/', 'other.test is not an allowed host.'],
  ])('refuses %s', async (url, message) => {
    expect(await fetchUrl(url)).toMatchObject({
      status: 'failure',
      content: expect.stringContaining(message),
    });
  });

  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback IPv6', '::1'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.16.9.9'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local, the instance metadata service', '169.254.169.254'],
    ['the IPv6 metadata service', 'fd00:ec2::254'],
    ['link-local IPv6', 'fe80::1'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['unspecified', '0.0.0.0'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ])('refuses a host that resolves to a %s address (%s), before connecting', async (_kind, address) => {
    const outcome = await fetchUrl('http://api.example.com/', {
      resolve: async () => [
        { address: '93.184.215.14', family: 4 },
        { address, family: address.includes(':') ? 6 : 4 },
      ],
      allowAddresses: [],
    });
    expect(outcome).toMatchObject({
      status: 'failure',
      content: expect.stringContaining(`resolves to ${address}, which is not a public address`),
    });
  });

  it('refuses an IP literal of the loopback unless it is explicitly allowed', async () => {
    const tool = { allowHosts: ['127.0.0.1'], allowAddresses: [] };
    expect(await fetchUrl(`http://127.0.0.1:${port}/hello`, tool)).toMatchObject({ status: 'failure' });
  });

  it("sends a request that is not safe with the call's Idempotency-Key, the same on a retry", async () => {
    received.length = 0;
    const tool = fetchTool();
    const args = { url: `http://docs.test:${port}/echo`, method: 'POST', body: '{"n":1}' };
    const first = await runTool(tool, args, context);
    await runTool(tool, args, context);
    await runTool(
      tool,
      { url: `http://docs.test:${port}/echo`, method: 'DELETE' },
      { ...context, position: 1 },
    );
    await runTool(tool, { url: `http://docs.test:${port}/echo` }, context);
    expect(first).toEqual({
      tool: 'http_fetch',
      status: 'success',
      content: { status: 201, content_type: 'text/plain', body: 'stored' },
    });
    expect(received).toEqual([
      { method: 'POST', key: 's:b:0', type: 'application/json', body: '{"n":1}' },
      { method: 'POST', key: 's:b:0', type: 'application/json', body: '{"n":1}' },
      { method: 'DELETE', key: 's:b:1', type: undefined, body: '' },
      { method: 'GET', key: undefined, type: undefined, body: '' },
    ]);
  });

  it('answers a redirect of a request that is not safe as it is, without sending it again', async () => {
    const outcome = await runTool(
      fetchTool(),
      { url: `http://docs.test:${port}/hop`, method: 'PUT', body: 'x' },
      context,
    );
    expect(outcome.content).toEqual({ status: 302, content_type: null, body: '', location: '/hello' });
  });

  it('refuses a body on a method that carries none', async () => {
    const outcome = await runTool(fetchTool(), { url: `http://docs.test:${port}/echo`, body: 'x' }, context);
    expect(outcome).toMatchObject({
      status: 'failure',
      content: 'Only POST, PUT and PATCH carry a body, not GET: send it without one.',
    });
  });
});
