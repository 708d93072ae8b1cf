import type { Stats } from 'node:fs';
import { fileKind } from './file-kind.js';
import { WorkspaceRefusal } from './workspace-refusal.js';

/**
 * Throws unless `stats` are those of a regular file with no other hard link: a second link may
 * sit outside the workspace, and a FIFO, socket or device could block or reach beyond it.
 */
export function assertPlainFile(stats: Stats, key: string): void {
  if (stats.isDirectory()) throw new WorkspaceRefusal(`"${key}" is a folder, not a file.`);
  if (!stats.isFile()) throw new WorkspaceRefusal(`"${key}" is not a regular file (${fileKind(stats)}).`);
  if (stats.nlink !== 1) {
    throw new WorkspaceRefusal(
      `"${key}" has other hard links (${stats.nlink} in all): the workspace uses only files linked once.`,
    );
  }
}
