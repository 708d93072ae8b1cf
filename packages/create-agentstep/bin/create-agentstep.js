#!/usr/bin/env node
// `npm create agentstep@latest DIR` runs this: it only writes files, so it runs before anything is installed.
import { main } from '../src/main.js';

process.exitCode = main(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (text) => console.log(text),
  err: (text) => console.error(text),
});
