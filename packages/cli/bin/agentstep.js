#!/usr/bin/env node
// Runs the CLI from its bundle: the prebuilt one the published package ships (dist/prebuilt), else,
// inside the repository (where the sources sit beside this file), one built from the workspace
// sources and rebuilt when they change (see bundle.js).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cliDir = dirname(dirname(fileURLToPath(import.meta.url)));

/** The published bundle's entry when this is the published package, else a bundle of the sources. */
async function bundleEntry() {
  const prebuilt = join(cliDir, 'dist', 'prebuilt', 'main.mjs');
  if (existsSync(prebuilt) && !existsSync(join(cliDir, 'src'))) return prebuilt;
  // Imported only here: it loads esbuild and the console's build, which the published package skips.
  const { ensureBundle } = await import('./bundle.js');
  return ensureBundle();
}

// The AWS SDK warns about Node.js 20 on every start; it says nothing a user of this CLI can act on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const entry = await bundleEntry();
const { main, processIo } = await import(pathToFileURL(entry).href);
// The synthesized loop is cached beside the bundle it came from: synthesized once per version of
// the sources (or of the published package), shared by every folder, and gone with the bundle.
process.exitCode = await main(process.argv.slice(2), processIo({ cacheDir: join(dirname(entry), 'cache') }));
