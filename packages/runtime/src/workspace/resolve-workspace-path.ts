const MAX_PATH = 512;

/**
 * A model-supplied path as a safe relative key: `/`-separated, no `.` or `..` segments, no
 * absolute paths, no backslashes or control characters. Throws a message the model can act on.
 */
export function resolveWorkspacePath(path: string, { allowRoot = false } = {}): string {
  if (path.length > MAX_PATH) throw new Error(`The path is longer than ${MAX_PATH} characters.`);
  if (path.includes('\\') || [...path].some((char) => char.charCodeAt(0) < 0x20)) {
    throw new Error(`The path "${path}" contains a backslash or a control character.`);
  }
  if (path.startsWith('/')) {
    throw new Error(`The path "${path}" is absolute: paths are relative to the workspace.`);
  }
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new Error(`The path "${path}" leaves the workspace ("..").`);
  if (segments.length === 0 && !allowRoot)
    throw new Error('The path is empty: name a file, such as "notes.md".');
  return segments.join('/');
}
