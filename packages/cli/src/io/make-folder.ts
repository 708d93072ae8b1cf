import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * Creates a folder and its missing parents one level at a time, failing with the first level that
 * cannot be made. (`mkdir(path, { recursive: true })` in Node.js 20 never returns under `/proc`.)
 */
export async function makeFolder(path: string): Promise<void> {
  const missing: string[] = [];
  for (let folder = resolve(path); !(await isFolder(folder)); folder = dirname(folder)) {
    missing.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of missing) {
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
