import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import {
  CONSOLE_CONFIG_FILE,
  type ConsoleConfig,
  consoleContentSecurityPolicy,
} from '@agentstep/console/config';

/** The content type of each kind of file the console is built into. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

/** An HTTP handler in the Fetch API's shape, as Hono's `app.fetch` is. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/**
 * `api` with the web console built in `dir` in front of it: `GET /` answers its index.html,
 * `GET /assets/NAME` its bundle files and `GET /config.json` `config` (how it signs in), each with
 * the console's Content-Security-Policy; every other request, unknown paths included, reaches the
 * API unchanged (no API route lives there). `undefined` when `dir` holds no console.
 */
export function serveConsole(
  api: FetchHandler,
  dir: string,
  config: ConsoleConfig,
): FetchHandler | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, { body: Buffer; type: string }>();
  const add = (route: string, name: string, body: Buffer) =>
    files.set(route, { body, type: CONTENT_TYPES[extname(name)] ?? 'application/octet-stream' });
  add('/', 'index.html', readFileSync(join(dir, 'index.html')));
  for (const name of readdirSync(join(dir, 'assets')))
    add(`/assets/${name}`, name, readFileSync(join(dir, 'assets', name)));
  add(`/${CONSOLE_CONFIG_FILE}`, CONSOLE_CONFIG_FILE, Buffer.from(JSON.stringify(config)));
  const policy = consoleContentSecurityPolicy(config);
  return (request) => {
    const file = files.get(new URL(request.url).pathname);
    if (file === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) return api(request);
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(file.body), {
      headers: { 'content-type': file.type, 'cache-control': 'no-cache', 'content-security-policy': policy },
    });
  };
}
