import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/** The content type of each kind of file the console is built into. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** An HTTP handler in the Fetch API's shape, as Hono's `app.fetch` is. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/**
 * `api` with the web console built in `dir` in front of it: `GET /` answers its index.html and
 * `GET /assets/NAME` its bundle files; every other request, unknown paths included, reaches the API
 * unchanged (no API route lives at `/` or under `/assets/`). `undefined` when `dir` holds no console.
 */
export function serveConsole(api: FetchHandler, dir: string): FetchHandler | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, { body: Buffer; type: string }>();
  const add = (route: string, path: string) =>
    files.set(route, {
      body: readFileSync(path),
      type: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
    });
  add('/', join(dir, 'index.html'));
  for (const name of readdirSync(join(dir, 'assets'))) add(`/assets/${name}`, join(dir, 'assets', name));
  return (request) => {
    const file = files.get(new URL(request.url).pathname);
    if (file === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) return api(request);
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(file.body), {
      headers: { 'content-type': file.type, 'cache-control': 'no-cache' },
    });
  };
}
