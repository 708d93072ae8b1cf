import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWorkspaceContract } from '../testing/workspace-contract.js';
import { LocalDirectoryWorkspace } from './local-directory-workspace.js';

describeWorkspaceContract(
  'LocalDirectoryWorkspace',
  () => new LocalDirectoryWorkspace(mkdtempSync(join(tmpdir(), 'ws-'))),
);

describe('LocalDirectoryWorkspace confinement', () => {
  /** A workspace root with session `s` holding links out of it, and a secret outside. */
  function escapable() {
    const root = mkdtempSync(join(tmpdir(), 'ws-'));
    const outside = mkdtempSync(join(tmpdir(), 'outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    mkdirSync(join(root, 's'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 's', 'file-link'));
    symlinkSync(outside, join(root, 's', 'folder-link'));
    writeFileSync(join(root, 's', 'inside.txt'), 'inside');
    symlinkSync(join(root, 's', 'inside.txt'), join(root, 's', 'inner-link'));
    return { workspace: new LocalDirectoryWorkspace(root), root, outside };
  }

  it.each([
    ['reading a linked file', (ws: LocalDirectoryWorkspace) => ws.read('s', 'file-link')],
    [
      'reading through a linked folder',
      (ws: LocalDirectoryWorkspace) => ws.read('s', 'folder-link/secret.txt'),
    ],
    ['listing a linked folder', (ws: LocalDirectoryWorkspace) => ws.list('s', 'folder-link')],
    ['writing onto a linked file', (ws: LocalDirectoryWorkspace) => ws.write('s', 'file-link', 'x')],
    [
      'writing into a new folder under a linked folder',
      (ws: LocalDirectoryWorkspace) => ws.write('s', 'folder-link/new/x.txt', 'x'),
    ],
  ])(
    'refuses %s that leads out of the session folder, naming only the workspace path',
    async (_case, act) => {
      const { workspace, root, outside } = escapable();
      const error = await act(workspace).then(
        () => undefined,
        (failure: Error) => failure,
      );
      expect(error?.message).toMatch(/^The path ".+" leads out of the workspace through a symbolic link\.$/);
      expect(error?.message).not.toContain(root);
      expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
      expect(existsSync(join(outside, 'new'))).toBe(false);
    },
  );

  it('follows a link that stays inside the session folder', async () => {
    const { workspace } = escapable();
    expect(await workspace.read('s', 'inner-link')).toBe('inside');
  });

  it.each(['.', '..', 'a/b', ''])('refuses the session id %j', async (session) => {
    const { workspace } = escapable();
    await expect(workspace.read(session, 'inside.txt')).rejects.toThrow('A session id is 1 to 128 letters');
  });

  it('names a missing file by its workspace path only', async () => {
    const { workspace, root } = escapable();
    const error = await workspace.read('s', 'missing/file.txt').then(
      () => undefined,
      (failure: Error) => failure,
    );
    expect(error?.message).toBe('No such file or folder in the workspace: "missing/file.txt".');
    expect(error?.message).not.toContain(root);
  });
});
