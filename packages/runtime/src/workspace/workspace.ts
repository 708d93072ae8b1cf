/** One entry of a workspace folder. */
export interface WorkspaceEntry {
  path: string;
  type: 'file' | 'folder';
  /** Bytes, for files. */
  size?: number;
}

/**
 * A session's files: a local folder when running locally, an S3 prefix when deployed. Paths are
 * relative, `/`-separated and confined to the session (see `resolveWorkspacePath`).
 */
export interface Workspace {
  /** The file's text; throws a message naming the path when it does not exist. */
  read(session: string, path: string): Promise<string>;
  /** Creates or replaces a file; returns its size in bytes. */
  write(session: string, path: string, content: string): Promise<number>;
  /** The entries directly inside a folder (`''` is the workspace's root). */
  list(session: string, folder: string): Promise<WorkspaceEntry[]>;
}
