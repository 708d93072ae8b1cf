import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listeningUrl, type RunningCommand } from '@agentstep/cli/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, newBrowserContext, START_WAIT_MS } from '../support/chromium.js';
import { serveForPage } from '../support/serve-for-page.js';

/** A page server on this machine: every path answers one empty HTML page, the origin a test fetches from. */
async function startPageServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>');
  });
  await new Promise<void>((settle) => server.listen(0, '127.0.0.1', settle));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * In the page: starts a session with `POST /sessions` as `tenant`, then reads its whole stream;
 * resolves with the SSE event names it read, or rejects as the browser's fetch does.
 */
const startAndReadStream = (page: Page, api: string, tenant = 'alice') =>
  page.evaluate(
    async ({ api, tenant }) => {
      const started = await fetch(`${api}/sessions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tenant}`,
          'content-type': 'application/json',
          'idempotency-key': 'k1',
        },
        body: JSON.stringify({ message: 'Hi' }),
      });
      const { session } = (await started.json()) as { session: string };
      const stream = await fetch(`${api}/sessions/${session}/stream`, {
        headers: { authorization: `Bearer ${tenant}` },
      });
      const text = await stream.text();
      return [...text.matchAll(/^event: (\S+)$/gm)].map((match) => match[1]);
    },
    { api, tenant },
  );

describe.skipIf(chromiumMissing !== undefined)(
  `a web page on another origin calling \`agentstep serve --cors\`${chromiumMissing === undefined ? '' : ` (skipped: ${chromiumMissing})`}`,
  () => {
    let pages: { server: Server; port: number };
    let serving: RunningCommand;
    let api: string;
    let browser: Browser;
    beforeAll(async () => {
      [pages, browser] = await Promise.all([startPageServer(), launchChromium()]);
      serving = serveForPage(['Hello from the API.<end>'], `http://127.0.0.1:${pages.port}`);
      api = await serving.waitFor(listeningUrl);
    }, START_WAIT_MS);
    afterAll(async () => {
      await browser?.close();
      serving?.stop();
      expect(await serving?.exited).toBe(0);
      await new Promise((settle) => pages?.server.close(settle));
    });

    /** A page of the page server, at `host`: the origin `http://HOST:PORT`. */
    async function pageAt(host: string): Promise<Page> {
      const page = await (await newBrowserContext(browser)).newPage();
      await page.goto(`http://${host}:${pages.port}/`);
      return page;
    }

    it('lets a page of the listed origin start a session and read its stream, and read a refusal', async () => {
      const page = await pageAt('127.0.0.1');
      const events = await startAndReadStream(page, api);
      expect(events).toContain('respond');
      expect(events).toContain('turn_end');
      const refusal = await page.evaluate(async (api) => {
        const response = await fetch(`${api}/sessions`);
        return { status: response.status, body: await response.json() };
      }, api);
      expect(refusal).toMatchObject({ status: 401, body: { error: { code: 'Unauthorized' } } });
    });

    it('refuses a page of an origin not listed: its fetch fails', async () => {
      const page = await pageAt('localhost');
      await expect(startAndReadStream(page, api, 'mallory')).rejects.toThrow('Failed to fetch');
      // Its preflight was refused, so the POST was never sent: mallory has no session.
      const listed = await fetch(`${api}/sessions`, { headers: { authorization: 'Bearer mallory' } });
      expect(await listed.json()).toMatchObject({ sessions: [] });
    });
  },
);
