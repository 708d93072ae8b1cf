#!/usr/bin/env node
// Runs the CLI from a bundle of the workspace sources, rebuilt when they change (see bundle.js).
import { pathToFileURL } from 'node:url';
import { ensureBundle } from './bundle.js';

const { main } = await import(pathToFileURL(await ensureBundle()).href);
process.exitCode = await main(process.argv.slice(2));
