import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { resolveWorkspacePath } from './resolve-workspace-path.js';
import type { Workspace, WorkspaceEntry } from './workspace.js';

/** A {@link Workspace} in a local folder: each session's files under `<root>/<session>/`. */
export class LocalDirectoryWorkspace implements Workspace {
  readonly #root: string;

  constructor(root: string) {
    this.#root = root;
  }

  async read(session: string, path: string): Promise<string> {
    const key = resolveWorkspacePath(path);
    try {
      return await readFile(this.#file(session, key), 'utf8');
    } catch (error) {
      throw notFound(error, key);
    }
  }

  async write(session: string, path: string, content: string): Promise<number> {
    const file = this.#file(session, resolveWorkspacePath(path));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
    return Buffer.byteLength(content);
  }

  async list(session: string, folder: string): Promise<WorkspaceEntry[]> {
    const key = resolveWorkspacePath(folder, { allowRoot: true });
    const entries = await readdir(this.#file(session, key), { withFileTypes: true }).catch(
      (error: unknown) => {
        if (key === '' && isMissing(error)) return [];
        throw notFound(error, key);
      },
    );
    const listed = await Promise.all(
      entries.map(async (entry): Promise<WorkspaceEntry> => {
        const path = key === '' ? entry.name : `${key}/${entry.name}`;
        if (entry.isDirectory()) return { path, type: 'folder' };
        return { path, type: 'file', size: (await stat(this.#file(session, path))).size };
      }),
    );
    return listed.sort((a, b) => a.path.localeCompare(b.path));
  }

  #file(session: string, key: string): string {
    return join(this.#root, encodeURIComponent(session), ...key.split('/').filter(Boolean));
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}

function notFound(error: unknown, key: string): unknown {
  return isMissing(error) ? new Error(`No such file or folder in the workspace: "${key}".`) : error;
}
