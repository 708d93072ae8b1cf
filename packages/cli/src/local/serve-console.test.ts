import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
const get = (path: string, method = 'GET') => new Request(`http://127.0.0.1:3000${path}`, { method });

describe('serveConsole', () => {
  it('answers the page at / and each bundle file under /assets/ with its content type', async () => {
    const handler = serveConsole(api, builtConsole());
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

  it('passes every other request to the API: other paths, unknown assets and other methods', async () => {
    const handler = serveConsole(api, builtConsole());
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
    expect(serveConsole(api, mkdtempSync(join(tmpdir(), 'agentstep-no-console-')))).toBeUndefined();
  });
});
