import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceUsage } from './session-quota.js';

/**
 * The files and bytes under `folder`, counted on disk (so true after a restart) without following
 * links: links and special files count as files, only regular files' bytes count. Stops once it
 * has counted more than `stopAfter` files, the quota being passed by then.
 */
export async function folderUsage(folder: string, stopAfter: number): Promise<WorkspaceUsage> {
  const usage = { files: 0, bytes: 0 };
  const folders = [folder];
  for (let next = folders.pop(); next !== undefined && usage.files <= stopAfter; next = folders.pop()) {
    for (const entry of await readdir(next, { withFileTypes: true })) {
      const path = join(next, entry.name);
      if (entry.isDirectory()) folders.push(path);
      else {
        usage.files += 1;
        if (entry.isFile()) usage.bytes += (await lstat(path)).size;
      }
    }
  }
  return usage;
}
