import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApi, singleTenant, storedSession } from '@agentstep/api';
import { inMemoryApiDeps } from '@agentstep/api/testing';
import type { TurnAccepted } from '@agentstep/protocol';
import { endTurn } from '@agentstep/runtime';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, newBrowserContext, START_WAIT_MS } from '../support/chromium.js';

/** The page the EventSource runs in, on the API's own origin. */
const PAGE = '/page';
/** Each connection's cap: the first one ends while the turn still runs, as API Gateway's would. */
const STREAM_LIMIT_MS = 1_000;

/** A stream request as the server saw it: where it resumed, and how it was answered. */
interface StreamRequest {
  lastEventId: string | null;
  status: number;
}

type Fetch = (request: Request) => Response | Promise<Response>;

/**
 * `fetch` over HTTP on a free port, and an empty page at {@link PAGE}; every request to a `/stream`
 * path is told to `onStream` once answered.
 */
async function serveOverHttp(fetch: Fetch, onStream: (request: StreamRequest) => void): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    if (incoming.url === PAGE) {
      outgoing.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>stream</title>');
      return;
    }
    answer(fetch, incoming, outgoing, onStream).catch(() => outgoing.destroy());
  });
  await new Promise<void>((settle) => server.listen(0, '127.0.0.1', settle));
  return server;
}

/** Answers one bodiless request with `fetch`, its body written as it comes. */
async function answer(
  fetch: Fetch,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  onStream: (request: StreamRequest) => void,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers))
    if (typeof value === 'string') headers.set(name, value);
  const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
  const response = await fetch(new Request(url, { method: incoming.method ?? 'GET', headers }));
  if (url.pathname.endsWith('/stream'))
    onStream({ lastEventId: headers.get('last-event-id'), status: response.status });
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  outgoing.on('close', () => void reader.cancel());
  for (let read = await reader.read(); !read.done; read = await reader.read()) outgoing.write(read.value);
  outgoing.end();
}

describe.skipIf(chromiumMissing !== undefined)(
  `a browser EventSource on a session's stream${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    const deps = inMemoryApiDeps(singleTenant());
    const app = createApi({ ...deps, streamLimitMs: STREAM_LIMIT_MS, pollMs: 20 });
    const requests: StreamRequest[] = [];
    /** Settles once a stream request resumed (it carried Last-Event-ID). */
    let resumed: () => void = () => {};
    const resumption = new Promise<void>((settle) => {
      resumed = settle;
    });
    let server: Server;
    let browser: Browser;
    beforeAll(async () => {
      [server, browser] = await Promise.all([
        serveOverHttp(app.fetch, (request) => {
          requests.push(request);
          if (request.lastEventId !== null) resumed();
        }),
        launchChromium(),
      ]);
    }, START_WAIT_MS);

    afterAll(async () => {
      await browser?.close();
      await new Promise((settle) => server?.close(settle));
    });

    it('resumes after a drop with Last-Event-ID, and stops after done: one more request, answered 204', async () => {
      const started = await app.request('/sessions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Hi' }),
      });
      const { session, turn } = (await started.json()) as TurnAccepted;
      const page = await (await newBrowserContext(browser)).newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}${PAGE}`);
      await page.evaluate(`(() => {
        window.received = [];
        window.source = new EventSource('/sessions/${session}/stream');
        for (const name of ['user', 'turn_end', 'done'])
          window.source.addEventListener(name, (event) => window.received.push(name + ' ' + event.lastEventId));
      })()`);
      // The first connection ends at its cap while the turn runs; the turn ends once the browser resumed.
      await resumption;
      await endTurn(
        { session: storedSession('local', session), turn, status: 'done', message: 'Done.' },
        deps,
      );
      await page.waitForFunction('window.source.readyState === EventSource.CLOSED');
      expect(await page.evaluate('window.received')).toEqual(['user 1', 'turn_end 2', 'done 2']);
      expect(requests).toEqual([
        { lastEventId: null, status: 200 },
        { lastEventId: '1', status: 200 },
        { lastEventId: '2', status: 204 },
      ]);
    });
  },
);
