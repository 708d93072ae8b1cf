import type { Stats } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { isMissing } from './is-missing.js';
import { WorkspaceRefusal } from './workspace-refusal.js';

/** Where a workspace path is on disk: its real path, and its `lstat` when it exists. */
export interface LocalPath {
  path: string;
  stats?: Stats | undefined;
}

/**
 * `key` in a session's folder (a real path), checked at the moment of use: each existing segment
 * is `lstat`ed and a symbolic link is followed only when its target exists and stays in the
 * folder; the first missing segment and those after it are joined as they are (a file to write).
 */
export async function resolveLocalPath(folder: string, key: string): Promise<LocalPath> {
  const segments = key.split('/').filter(Boolean);
  let path = folder;
  let stats = await lstat(folder);
  for (const [index, segment] of segments.entries()) {
    const next = join(path, segment);
    const found = await lstat(next).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    if (found === undefined) return { path: join(next, ...segments.slice(index + 1)) };
    if (found.isSymbolicLink()) {
      path = await follow(folder, next, segments.slice(0, index + 1).join('/'));
      stats = await lstat(path);
    } else {
      path = next;
      stats = found;
    }
  }
  return { path, stats };
}

/** The real target of the link at `link`, named `name` in the workspace, refused unless inside. */
async function follow(folder: string, link: string, name: string): Promise<string> {
  const target = await realpath(link).catch((error: unknown) => {
    if (isMissing(error) || (error instanceof Error && 'code' in error && error.code === 'ELOOP')) {
      throw new WorkspaceRefusal(
        `"${name}" is a symbolic link to nothing that exists: the workspace follows no dangling link.`,
        { cause: error },
      );
    }
    throw error;
  });
  const inside = relative(folder, target);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new WorkspaceRefusal(`"${name}" is a symbolic link that leads out of the workspace.`);
  }
  return target;
}
