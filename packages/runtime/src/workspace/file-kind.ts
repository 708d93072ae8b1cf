import type { Stats } from 'node:fs';

/** What an `lstat` found, in the words a refusal uses: "folder", "FIFO", "socket", … */
export function fileKind(stats: Stats): string {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'folder';
  if (stats.isSymbolicLink()) return 'symbolic link';
  if (stats.isFIFO()) return 'FIFO';
  if (stats.isSocket()) return 'socket';
  return stats.isCharacterDevice() ? 'character device' : 'block device';
}
