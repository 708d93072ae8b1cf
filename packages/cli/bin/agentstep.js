#!/usr/bin/env node
// Runs the CLI from a bundle of the workspace sources, rebuilt when they change (see bundle.js).
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBundle } from './bundle.js';

// The AWS SDK warns about Node.js 20 on every start; it says nothing a user of this CLI can act on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const entry = await ensureBundle();
const { main, processIo } = await import(pathToFileURL(entry).href);
// The synthesized loop is cached beside the bundle it came from: synthesized once per version of
// the sources, shared by every folder, and gone with the bundle when the sources change.
process.exitCode = await main(process.argv.slice(2), processIo({ cacheDir: join(dirname(entry), 'cache') }));
