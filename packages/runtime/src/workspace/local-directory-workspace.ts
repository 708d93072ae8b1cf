import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readdir, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { assertPlainFile } from './assert-plain-file.js';
import { fileKind } from './file-kind.js';
import { folderUsage } from './folder-usage.js';
import { isMissing } from './is-missing.js';
import { resolveLocalPath } from './resolve-local-path.js';
import { resolveWorkspacePath } from './resolve-workspace-path.js';
import { sessionFolder } from './session-folder.js';
import { SessionQuota } from './session-quota.js';
import { UTF8_TAIL_BYTES, utf8Page } from './utf8-page.js';
import type { FilePage, ReadWindow, Workspace, WorkspaceEntry, WorkspaceQuota } from './workspace.js';
import { WorkspaceRefusal } from './workspace-refusal.js';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;
// No open follows a link swapped in after the check, and none waits on a FIFO swapped in.
const READ = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
// Not O_TRUNC: the opened file is checked (regular, linked once, the one resolved) before truncating.
const REPLACE = O_WRONLY | O_NOFOLLOW | O_NONBLOCK;
const CREATE = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

/** Options of {@link LocalDirectoryWorkspace}. */
export interface LocalDirectoryWorkspaceOptions {
  /** What one session may hold. @default 1,000 files, 100 MiB */
  quota?: WorkspaceQuota;
}

/**
 * A {@link Workspace} in a local folder: each session's files under `<root>/<session>/`. Every
 * path is checked as text (`resolveWorkspacePath`) and on disk at the moment of use: symbolic
 * links are followed only to existing targets inside the session's folder, and only regular files
 * linked once are opened, without following a link or waiting on a FIFO, then checked again.
 * Errors name workspace-relative paths only, never the host's.
 */
export class LocalDirectoryWorkspace implements Workspace {
  readonly #root: string;
  readonly #quota: SessionQuota;

  constructor(root: string, options: LocalDirectoryWorkspaceOptions = {}) {
    this.#root = root;
    this.#quota = new SessionQuota(options.quota);
  }

  async read(session: string, path: string, { offset, limit }: ReadWindow): Promise<FilePage> {
    const key = resolveWorkspacePath(path);
    try {
      const file = await resolveLocalPath(await this.#folder(session), key);
      const { handle, size } = await openPlainFile(file.path, READ, key, file.stats);
      try {
        const bytes = Buffer.alloc(Math.max(0, Math.min(limit + UTF8_TAIL_BYTES, size - offset)));
        const { bytesRead } = await handle.read(bytes, 0, bytes.length, offset);
        return utf8Page(bytes.subarray(0, bytesRead), offset, limit, size);
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw workspaceError(error, key);
    }
  }

  async write(session: string, path: string, content: string): Promise<number> {
    const key = resolveWorkspacePath(path);
    const bytes = Buffer.from(content, 'utf8');
    try {
      const folder = await this.#folder(session, { create: true });
      const file = await resolveLocalPath(folder, key);
      if (file.stats !== undefined) assertPlainFile(file.stats, key);
      const usage = await folderUsage(folder, this.#quota.files);
      this.#quota.check(usage, { key, bytes: bytes.length, replaces: file.stats?.size });
      // Made under the resolved real parent, so no link leads mkdir out of the workspace.
      if (file.stats === undefined) await mkdir(dirname(file.path), { recursive: true });
      const { handle } = await openPlainFile(file.path, file.stats ? REPLACE : CREATE, key, file.stats);
      try {
        await handle.truncate(0);
        await handle.writeFile(bytes);
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw workspaceError(error, key);
    }
    return bytes.length;
  }

  async list(session: string, folder: string): Promise<WorkspaceEntry[]> {
    const key = resolveWorkspacePath(folder, { allowRoot: true });
    try {
      const root = await this.#folder(session);
      const { path, stats } = await resolveLocalPath(root, key);
      if (stats !== undefined && !stats.isDirectory())
        throw new WorkspaceRefusal(`"${key}" is not a folder (${fileKind(stats)}).`);
      const names = await readdir(path);
      const entries = await Promise.all(
        names.map((name) => entry(root, key === '' ? name : `${key}/${name}`)),
      );
      return entries.flatMap((found) => found ?? []).sort((a, b) => a.path.localeCompare(b.path));
    } catch (error) {
      if (key === '' && isMissing(error)) return [];
      throw workspaceError(error, key);
    }
  }

  /** The real path of the session's folder, refused unless it is a plain folder (not a link). */
  async #folder(session: string, { create = false } = {}): Promise<string> {
    const folder = join(this.#root, sessionFolder(session));
    if (create) await mkdir(folder, { recursive: true });
    const stats = await lstat(folder);
    if (!stats.isDirectory()) {
      throw new WorkspaceRefusal(
        `The session's workspace folder is a ${fileKind(stats)}, not a plain folder.`,
      );
    }
    return realpath(folder);
  }
}

/**
 * `path` opened with `flags` and checked through the handle: a plain file and, when `expected`
 * (its `lstat` at resolution) is given, that very file, so nothing swapped in since is used.
 */
async function openPlainFile(
  path: string,
  flags: number,
  key: string,
  expected?: Stats,
): Promise<{ handle: FileHandle; size: number }> {
  if (expected !== undefined) assertPlainFile(expected, key);
  const handle = await open(path, flags);
  try {
    const stats = await handle.stat();
    assertPlainFile(stats, key);
    if (expected !== undefined && (stats.ino !== expected.ino || stats.dev !== expected.dev)) {
      throw new WorkspaceRefusal(`"${key}" changed while it was being opened: try again.`);
    }
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A listing's entry for `key`: a folder, a file with its size, or nothing for what is refused. */
async function entry(root: string, key: string): Promise<WorkspaceEntry | undefined> {
  const found = await resolveLocalPath(root, key).catch((error: unknown) => {
    if (error instanceof WorkspaceRefusal || isMissing(error)) return undefined;
    throw error;
  });
  if (found?.stats?.isDirectory()) return { path: key, type: 'folder' };
  if (found?.stats?.isFile()) return { path: key, type: 'file', size: found.stats.size };
  return undefined;
}

/** A file-system error as the model may see it: what went wrong with which workspace path. */
function workspaceError(error: unknown, key: string): Error {
  if (!(error instanceof Error) || !('code' in error))
    return error instanceof Error ? error : new Error(String(error));
  if (isMissing(error))
    return new Error(`No such file or folder in the workspace: "${key}".`, { cause: error });
  if (error.code === 'EISDIR') return new Error(`"${key}" is a folder, not a file.`, { cause: error });
  if (error.code === 'EACCES' || error.code === 'EPERM')
    return new Error(`"${key}" may not be accessed.`, { cause: error });
  if (error.code === 'ELOOP' || error.code === 'ENXIO')
    return new Error(`"${key}" changed into a link or a special file while it was being opened.`, {
      cause: error,
    });
  return new Error(`The workspace could not use "${key}" (${String(error.code)}).`, { cause: error });
}
