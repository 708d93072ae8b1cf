/** One entry of a workspace folder. */
export interface WorkspaceEntry {
  path: string;
  type: 'file' | 'folder';
  /** Bytes, for files. */
  size?: number;
}

/** Which part of a file to read, in bytes of its UTF-8 text. */
export interface ReadWindow {
  offset: number;
  limit: number;
}

/** A part of a file's text, holding whole characters only (see `utf8Page`). */
export interface FilePage {
  content: string;
  /** Where `content` starts, in bytes: the asked offset, moved past a character it fell inside. */
  offset: number;
  /** The whole file's size in bytes. */
  size: number;
  /** Where the next page starts, in bytes, when the file goes on. */
  nextOffset?: number;
}

/** The most a session may hold in a workspace; a write that would pass either limit fails. */
export interface WorkspaceQuota {
  /** @default 1,000 */
  files?: number;
  /** Total size of the session's files. @default 100 MiB */
  bytes?: number;
}

/**
 * A session's files: a local folder when running locally, an S3 prefix when deployed. Paths are
 * relative, `/`-separated and confined to the session (see `resolveWorkspacePath`); every call
 * fails with a message naming the workspace path and the cause, never a host path.
 */
export interface Workspace {
  /** A window of the file's text, read without loading the rest of the file. */
  read(session: string, path: string, window: ReadWindow): Promise<FilePage>;
  /** Creates or replaces a file within the session's quota; returns its size in bytes. */
  write(session: string, path: string, content: string): Promise<number>;
  /** The entries directly inside a folder (`''` is the workspace's root). */
  list(session: string, folder: string): Promise<WorkspaceEntry[]>;
}
