import type { WorkspaceQuota } from './workspace.js';

const DEFAULT_FILES = 1_000;
const DEFAULT_BYTES = 100 * 1024 * 1024;

/** What a session's folder holds: its files (links and other entries count as files) and bytes. */
export interface WorkspaceUsage {
  files: number;
  bytes: number;
}

/** A write about to happen: its workspace path, its size and the size of the file it replaces. */
export interface PlannedWrite {
  key: string;
  bytes: number;
  /** Bytes of the file being replaced; absent for a new file. */
  replaces?: number | undefined;
}

/**
 * A {@link WorkspaceQuota} with its defaults (1,000 files, 100 MiB): `check` throws, naming the
 * limit, when a write would take the session past it; a replaced file's bytes are freed first.
 */
export class SessionQuota {
  /** The most files; counting a session's files may stop past it. */
  readonly files: number;
  readonly bytes: number;

  constructor(quota: WorkspaceQuota = {}) {
    this.files = quota.files ?? DEFAULT_FILES;
    this.bytes = quota.bytes ?? DEFAULT_BYTES;
  }

  check(usage: WorkspaceUsage, write: PlannedWrite): void {
    // A count past the limit may have stopped early: then no write passes, a replacement neither.
    if (usage.files + (write.replaces === undefined ? 1 : 0) > this.files) {
      throw new Error(
        `The workspace quota is ${this.files} files per session and "${write.key}" would be one more: replace an existing file instead.`,
      );
    }
    const bytes = usage.bytes - (write.replaces ?? 0) + write.bytes;
    if (bytes > this.bytes) {
      throw new Error(
        `The workspace quota is ${this.bytes} bytes per session: writing ${write.bytes} bytes to "${write.key}" would bring the session's files to ${bytes} bytes.`,
      );
    }
  }
}
