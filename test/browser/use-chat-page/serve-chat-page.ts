import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The page: an HTML shell loading the bundle of `page.ts` as a module. */
const HTML =
  '<!doctype html><meta charset="utf-8"><title>chat</title><div id="root"></div><script type="module" src="/page.js"></script>';

/** A served chat page: its origin, and how to stop serving it. */
export interface ChatPageServer {
  /** `http://127.0.0.1:PORT`: the origin the API must allow. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Bundles `page.ts` (React, `@ai-sdk/react`, `ai`) with esbuild for the browser, or the page
 * `source` given (TypeScript resolved from this folder), and serves it on a free port of
 * 127.0.0.1: `/page.js` the bundle, every other path the HTML page that loads it.
 */
export async function serveChatPage(source?: string): Promise<ChatPageServer> {
  const folder = fileURLToPath(new URL('.', import.meta.url));
  const entry =
    source === undefined
      ? { entryPoints: [fileURLToPath(new URL('page.ts', import.meta.url))] }
      : { stdin: { contents: source, resolveDir: folder, loader: 'tsx' as const, sourcefile: 'page.ts' } };
  const bundled = await build({
    ...entry,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const script = bundled.outputFiles[0]?.contents;
  if (script === undefined)
    throw new Error(
      'esbuild returned no output file for page.ts: check the build options in serve-chat-page.ts.',
    );
  const server = createServer((request, response) => {
    if (request.url === '/page.js')
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else response.writeHead(200, { 'content-type': 'text/html' }).end(HTML);
  });
  await new Promise<void>((settle) => server.listen(0, '127.0.0.1', settle));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((settle) => server.close(() => settle())),
  };
}
