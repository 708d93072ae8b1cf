import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Workspace, WorkspaceQuota } from '../workspace/workspace.js';

/** A window that holds every file these tests write. */
const WHOLE = { offset: 0, limit: 1_000_000 };
const TEXT = 'naïve 漢字 🙂';

/**
 * The behaviour every {@link Workspace} adapter must have; each test uses its own session, and
 * `createWorkspace` applies the quota it is given.
 */
export function describeWorkspaceContract(
  adapter: string,
  createWorkspace: (quota?: WorkspaceQuota) => Workspace,
): void {
  describe(`Workspace contract: ${adapter}`, () => {
    it('writes and reads back text, non-ASCII included, with its size in bytes', async () => {
      const workspace = createWorkspace();
      const session = `s-${randomUUID()}`;
      expect(await workspace.write(session, 'notes/todo.md', TEXT)).toBe(Buffer.byteLength(TEXT));
      expect(await workspace.read(session, 'notes/todo.md', WHOLE)).toEqual({
        content: TEXT,
        offset: 0,
        size: Buffer.byteLength(TEXT),
      });
      await workspace.write(session, 'notes/todo.md', 'replaced');
      expect((await workspace.read(session, './notes//todo.md', WHOLE)).content).toBe('replaced');
    });

    it.each([1, 2, 3, 4, 5, 8])(
      'pages through a file %i bytes at a time, in whole characters',
      async (limit) => {
        const workspace = createWorkspace();
        const session = `s-${randomUUID()}`;
        await workspace.write(session, 'text.md', TEXT);
        const pages: string[] = [];
        for (let offset: number | undefined = 0; offset !== undefined; ) {
          const page = await workspace.read(session, 'text.md', { offset, limit });
          expect(page.offset).toBe(offset);
          expect(page.size).toBe(Buffer.byteLength(TEXT));
          pages.push(page.content);
          offset = page.nextOffset;
        }
        expect(pages.join('')).toBe(TEXT);
        // A page is at most `limit` bytes, or one character longer than that.
        for (const page of pages)
          expect([...page].length === 1 || Buffer.byteLength(page) <= limit).toBe(true);
      },
    );

    it('starts a page past a character its offset falls inside, and ends one past the end empty', async () => {
      const workspace = createWorkspace();
      const session = `s-${randomUUID()}`;
      await workspace.write(session, 'text.md', TEXT);
      await workspace.write(session, 'empty.md', '');
      // "naïve": the ï takes bytes 2 and 3, so bytes 3 to 5 hold "ve" whole.
      expect(await workspace.read(session, 'text.md', { offset: 3, limit: 3 })).toEqual({
        content: 've',
        offset: 4,
        size: Buffer.byteLength(TEXT),
        nextOffset: 6,
      });
      expect(await workspace.read(session, 'text.md', { offset: 100, limit: 10 })).toEqual({
        content: '',
        offset: 100,
        size: Buffer.byteLength(TEXT),
      });
      expect(await workspace.read(session, 'empty.md', WHOLE)).toEqual({ content: '', offset: 0, size: 0 });
    });

    it('refuses a write past the quota of files, naming it, and still replaces a file', async () => {
      const workspace = createWorkspace({ files: 2 });
      const session = `s-${randomUUID()}`;
      await workspace.write(session, 'a.md', 'a');
      await workspace.write(session, 'b/c.md', 'c');
      await expect(workspace.write(session, 'd.md', 'd')).rejects.toThrow(
        'The workspace quota is 2 files per session and "d.md" would be one more',
      );
      await workspace.write(session, 'a.md', 'again');
      expect((await workspace.list(session, '')).map(({ path }) => path)).toEqual(['a.md', 'b']);
      expect(await workspace.list(`s-${randomUUID()}`, '')).toEqual([]);
    });

    it('refuses a write past the quota of bytes, naming it, counting a replaced file once', async () => {
      const workspace = createWorkspace({ bytes: 10 });
      const session = `s-${randomUUID()}`;
      await workspace.write(session, 'a.md', '123456');
      await expect(workspace.write(session, 'b.md', '12345')).rejects.toThrow(
        'The workspace quota is 10 bytes per session: writing 5 bytes to "b.md" would bring the session\'s files to 11 bytes.',
      );
      await expect(workspace.read(session, 'b.md', WHOLE)).rejects.toThrow('No such file');
      expect(await workspace.write(session, 'a.md', '1234567890')).toBe(10);
      expect(await workspace.write(`s-${randomUUID()}`, 'a.md', '1234567890')).toBe(10);
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
      await expect(workspace.read(two, 'secret.txt', WHOLE)).rejects.toThrow(
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
