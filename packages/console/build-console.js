// Bundles the web console into a folder of static files: index.html, assets/console.js and
// assets/console.css. `agentstep serve` serves the copy its CLI bundle carries (bin/bundle.js builds
// it there); `node build-console.js [OUTDIR]` writes OUTDIR (default dist/), as the CDK construct's
// asset bundling does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const consoleDir = dirname(fileURLToPath(import.meta.url));

/** The page every route of the console loads; the bundle routes by the URL's hash. */
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>AgentStep console</title>
    <link rel="stylesheet" href="assets/console.css" />
  </head>
  <body>
    <div id="app"></div>
    <script type="module" src="assets/console.js"></script>
  </body>
</html>
`;

/** Writes the console's static files into `outdir`: index.html and the minified assets. */
export async function buildConsole(outdir) {
  const { build } = await import('esbuild');
  mkdirSync(join(outdir, 'assets'), { recursive: true });
  await build({
    entryPoints: [
      { in: join(consoleDir, 'src', 'main.tsx'), out: 'console' },
      { in: join(consoleDir, 'src', 'console.css'), out: 'console' },
    ],
    outdir: join(outdir, 'assets'),
    bundle: true,
    minify: true,
    format: 'esm',
    // Code only some pages need (the Agentfile parser) comes in chunks of its own, loaded when used.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'error',
  });
  writeFileSync(join(outdir, 'index.html'), INDEX_HTML);
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await buildConsole(process.argv[2] ?? join(consoleDir, 'dist'));
