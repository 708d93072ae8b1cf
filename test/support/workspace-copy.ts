import { cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspace = fileURLToPath(new URL('../..', import.meta.url));
/** Build output, local data and the repository: never part of a copy. */
const LEFT_OUT = new Set(['.git', '.agentstep', 'dist', 'cdk.out', 'test']);

/**
 * A copy of the workspace's sources in a temporary directory, for tests that edit them. Each
 * package's `node_modules` links are copied as they are (relative), and the copy's root
 * `node_modules` links to this workspace's, so the copy runs without an install.
 */
export function copyWorkspace(): string {
  const copy = mkdtempSync(join(tmpdir(), 'agentstep-workspace-'));
  const rootModules = join(workspace, 'node_modules');
  cpSync(workspace, copy, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => source !== rootModules && !LEFT_OUT.has(basename(source)),
  });
  symlinkSync(rootModules, join(copy, 'node_modules'), 'dir');
  return copy;
}
