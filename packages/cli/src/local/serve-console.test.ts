import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConsoleConfig, consoleContentSecurityPolicy } from '@agentstep/console/config';
import { describe, expect, it } from 'vitest';
import { serveConsole } from './serve-console.js';

/** A built console in a new folder: its page, a script and a stylesheet. */
function builtConsole(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentstep-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><p>console</p>');
  writeFileSync(join(dir, 'assets', 'console.js'), 'export {};');
  writeFileSync(join(dir, 'assets', 'console.css'), 'p {}');
  return dir;
}

const api = (request: Request) =>
  Response.json({ api: `${request.method} ${new URL(request.url).pathname}` }, { status: 404 });
const CONFIG: ConsoleConfig = {
  signIn: {
    kind: 'oidc',
    issuer: 'https://id.example.com/',
    clientId: 'console',
    audience: 'api',
    scopes: ['openid'],
  },
};
const get = (path: string, method = 'GET') => new Request(`http://127.0.0.1:3000${path}`, { method });

describe('serveConsole', () => {
  it('answers the page at / and each bundle file under /assets/ with its content type', async () => {
    const handler = serveConsole(api, builtConsole(), CONFIG);
    const page = await handler?.(get('/'));
    expect([page?.status, page?.headers.get('content-type'), await page?.text()]).toEqual([
      200,
      'text/html; charset=utf-8',
      '<!doctype html><p>console</p>',
    ]);
    expect((await handler?.(get('/assets/console.js')))?.headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await handler?.(get('/assets/console.css')))?.headers.get('content-type')).toBe(
      'text/css; charset=utf-8',
    );
  });

  it('answers /config.json with how the console signs in, and every file with the console’s CSP', async () => {
    const handler = serveConsole(api, builtConsole(), CONFIG);
    const config = await handler?.(get('/config.json'));
    expect(await config?.json()).toEqual(CONFIG);
    for (const path of ['/', '/assets/console.js', '/config.json'])
      expect((await handler?.(get(path)))?.headers.get('content-security-policy')).toBe(
        consoleContentSecurityPolicy(CONFIG),
      );
    expect(consoleContentSecurityPolicy(CONFIG)).toContain(
      "connect-src 'self' https://id.example.com https:",
    );
  });

  it('passes every other request to the API: other paths, unknown assets and other methods', async () => {
    const handler = serveConsole(api, builtConsole(), CONFIG);
    for (const [path, method] of [
      ['/sessions', 'GET'],
      ['/assets/missing.js', 'GET'],
      ['/', 'POST'],
      ['/index.html', 'GET'],
    ] as const) {
      expect(await (await handler?.(get(path, method)))?.json()).toEqual({ api: `${method} ${path}` });
    }
  });

  it('is undefined for a folder that holds no console', () => {
    expect(serveConsole(api, mkdtempSync(join(tmpdir(), 'agentstep-no-console-')), CONFIG)).toBeUndefined();
  });
});
