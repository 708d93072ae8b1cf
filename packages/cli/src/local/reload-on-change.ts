import { unwatchFile, watchFile } from 'node:fs';
import { resolve } from 'node:path';
import type { CliIo } from '../io/cli-io.js';
import type { RunOptions } from './run-options.js';

/** How often `serve` looks at its agent file for a change. */
const WATCH_MS = 250;

/**
 * Runs the agent file's next version for every turn that starts once the file changes (decision
 * 0040): `load` reads the file again into options, `reload` starts the next turns on them; the
 * turns running finish on the version they started on. One reload at a time, in order of changes;
 * a file that does not load leaves the running version in place and says why. Returns how to stop.
 */
export function reloadOnChange(
  options: RunOptions,
  io: CliIo,
  load: () => Promise<RunOptions>,
  reload: (options: RunOptions) => Promise<string>,
  notice: (text: string) => void,
): () => void {
  const file = options.loadedAgent?.file;
  if (file === undefined) return () => {};
  const path = resolve(io.workingDir, file);
  let reloading = Promise.resolve();
  const changed = (now: { mtimeMs: number }, before: { mtimeMs: number }) => {
    if (now.mtimeMs === before.mtimeMs) return;
    reloading = reloading.then(async () => {
      try {
        const next = await load();
        notice(`${file} changed: new turns run on agent version ${await reload(next)}.`);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        notice(`${file} changed but does not load (${reason}): turns go on with the version before.`);
      }
    });
  };
  watchFile(path, { interval: WATCH_MS }, changed);
  return () => unwatchFile(path, changed);
}
