#!/usr/bin/env node
// Runs the CLI from a bundle of the workspace sources, rebuilt when they change (see bundle.js).
import { pathToFileURL } from 'node:url';
import { ensureBundle } from './bundle.js';

// The AWS SDK warns about Node.js 20 on every start; it says nothing a user of this CLI can act on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { main } = await import(pathToFileURL(await ensureBundle()).href);
process.exitCode = await main(process.argv.slice(2));
