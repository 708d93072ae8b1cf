/** A file-system error saying the path, or a folder on it, does not exist. */
export function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}
