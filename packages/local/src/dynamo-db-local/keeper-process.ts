import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The keeper's exit code when Java is missing. */
export const KEEPER_EXIT_JAVA_MISSING = 78;

/**
 * Starts a keeper for `folder` in its own process group, so it outlives (and is not signalled with)
 * the process that started it; its output is appended to `logFile`.
 */
export function spawnKeeper(folder: string, idleMs: number, logFile: string): ChildProcess {
  const log = openSync(logFile, 'a');
  try {
    const child = spawn(process.execPath, [...keeperScript(), folder, String(idleMs)], {
      detached: true,
      stdio: ['ignore', log, log],
    });
    child.unref();
    return child;
  } finally {
    closeSync(log);
  }
}

/**
 * How to run keeper-main: the built file next to this module, with this module's extension (`.mjs`
 * in the CLI's bundle, `.js` in the published package), else the TypeScript source through tsx.
 */
function keeperScript(): string[] {
  const here = fileURLToPath(import.meta.url);
  const extension = extname(here);
  if (extension !== '.ts') return [join(dirname(here), `keeper-main${extension}`)];
  const tsx = createRequire(import.meta.url).resolve('tsx');
  return ['--import', pathToFileURL(tsx).href, join(dirname(here), 'keeper-main.ts')];
}
