import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Workspace } from '../workspace/workspace.js';

/** The behaviour every {@link Workspace} adapter must have; each test uses its own session. */
export function describeWorkspaceContract(adapter: string, createWorkspace: () => Workspace): void {
  describe(`Workspace contract: ${adapter}`, () => {
    it('writes and reads back text, non-ASCII included, with its size in bytes', async () => {
      const workspace = createWorkspace();
      const session = `s-${randomUUID()}`;
      expect(await workspace.write(session, 'notes/todo.md', 'naïve 漢字 🙂')).toBe(
        Buffer.byteLength('naïve 漢字 🙂'),
      );
      expect(await workspace.read(session, 'notes/todo.md')).toBe('naïve 漢字 🙂');
      await workspace.write(session, 'notes/todo.md', 'replaced');
      expect(await workspace.read(session, './notes//todo.md')).toBe('replaced');
    });

    it('lists a folder: its files with sizes and its subfolders, in order', async () => {
      const workspace = createWorkspace();
      const session = `s-${randomUUID()}`;
      await workspace.write(session, 'b.txt', 'bb');
      await workspace.write(session, 'a/deep/c.txt', 'c');
      expect(await workspace.list(session, '')).toEqual([
        { path: 'a', type: 'folder' },
        { path: 'b.txt', type: 'file', size: 2 },
      ]);
      expect(await workspace.list(session, 'a/deep')).toEqual([
        { path: 'a/deep/c.txt', type: 'file', size: 1 },
      ]);
      expect(await workspace.list(`s-${randomUUID()}`, '')).toEqual([]);
    });

    it('keeps sessions apart', async () => {
      const workspace = createWorkspace();
      const [one, two] = [`s-${randomUUID()}`, `s-${randomUUID()}`];
      await workspace.write(one, 'secret.txt', 'one');
      await expect(workspace.read(two, 'secret.txt')).rejects.toThrow(
        'No such file or folder in the workspace: "secret.txt"',
      );
    });

    it.each([
      ['../escape.txt', 'leaves the workspace'],
      ['a/../../escape.txt', 'leaves the workspace'],
      ['/etc/passwd', 'is absolute'],
      ['a\\\\b.txt', 'backslash'],
      ['', 'The path is empty'],
    ])('refuses the path %j', async (path, message) => {
      await expect(createWorkspace().write(`s-${randomUUID()}`, path, 'x')).rejects.toThrow(message);
    });
  });
}
