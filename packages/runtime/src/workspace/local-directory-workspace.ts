import { lstat, mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { resolveWorkspacePath } from './resolve-workspace-path.js';
import { sessionFolder } from './session-folder.js';
import type { Workspace, WorkspaceEntry } from './workspace.js';

/**
 * A {@link Workspace} in a local folder: each session's files under `<root>/<session>/`. Paths are
 * checked twice: as text (`resolveWorkspacePath`) and on disk, where a symbolic link that leads
 * out of the session's folder is refused for reading, listing and writing alike. Errors name
 * workspace-relative paths only, never the host's.
 */
export class LocalDirectoryWorkspace implements Workspace {
  readonly #root: string;

  constructor(root: string) {
    this.#root = root;
  }

  async read(session: string, path: string): Promise<string> {
    const key = resolveWorkspacePath(path);
    try {
      return await readFile(await this.#confined(session, key), 'utf8');
    } catch (error) {
      throw workspaceError(error, key);
    }
  }

  async write(session: string, path: string, content: string): Promise<number> {
    const key = resolveWorkspacePath(path);
    try {
      await mkdir(this.#file(session, ''), { recursive: true });
      // Confined before any folder is made: a link must not lead mkdir out of the workspace.
      const file = await this.#confined(session, key);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
    } catch (error) {
      throw workspaceError(error, key);
    }
    return Buffer.byteLength(content);
  }

  async list(session: string, folder: string): Promise<WorkspaceEntry[]> {
    const key = resolveWorkspacePath(folder, { allowRoot: true });
    const entries = await this.#confined(session, key)
      .then((path) => readdir(path, { withFileTypes: true }))
      .catch((error: unknown) => {
        if (key === '' && isMissing(error)) return [];
        throw workspaceError(error, key);
      });
    const listed = await Promise.all(
      entries.map(async (entry): Promise<WorkspaceEntry> => {
        const path = key === '' ? entry.name : `${key}/${entry.name}`;
        if (entry.isDirectory()) return { path, type: 'folder' };
        return { path, type: 'file', size: (await lstat(this.#file(session, path))).size };
      }),
    );
    return listed.sort((a, b) => a.path.localeCompare(b.path));
  }

  /**
   * The real path of `key` in the session's folder (of its nearest existing parent, for a file
   * still to be written), refused when symbolic links lead it out of that folder.
   */
  async #confined(session: string, key: string): Promise<string> {
    const folder = await realpath(this.#file(session, ''));
    const segments = key.split('/').filter(Boolean);
    let real = folder;
    for (const [index, segment] of segments.entries()) {
      const next = await realpath(join(real, segment)).catch((error: unknown) => {
        if (isMissing(error)) return undefined;
        throw error;
      });
      if (next === undefined) {
        real = join(real, ...segments.slice(index));
        break;
      }
      real = next;
    }
    const inside = relative(folder, real);
    if (inside.startsWith(`..${sep}`) || inside === '..' || inside.startsWith(sep)) {
      throw new Error(`The path "${key}" leads out of the workspace through a symbolic link.`);
    }
    return real;
  }

  #file(session: string, key: string): string {
    return join(this.#root, sessionFolder(session), ...key.split('/').filter(Boolean));
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}

/** A file-system error as the model may see it: what went wrong with which workspace path. */
function workspaceError(error: unknown, key: string): Error {
  if (!(error instanceof Error) || !('code' in error))
    return error instanceof Error ? error : new Error(String(error));
  if (isMissing(error)) return new Error(`No such file or folder in the workspace: "${key}".`);
  if (error.code === 'EISDIR') return new Error(`"${key}" is a folder, not a file.`);
  if (error.code === 'EACCES' || error.code === 'EPERM') return new Error(`"${key}" may not be accessed.`);
  return new Error(`The workspace could not use "${key}" (${String(error.code)}).`);
}
