import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  ftruncateSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWorkspaceContract } from '../testing/workspace-contract.js';
import { LocalDirectoryWorkspace } from './local-directory-workspace.js';

const WHOLE = { offset: 0, limit: 1_000_000 };

describeWorkspaceContract(
  'LocalDirectoryWorkspace',
  (quota) => new LocalDirectoryWorkspace(mkdtempSync(join(tmpdir(), 'ws-')), quota ? { quota } : {}),
);

/** A workspace root with session `s` holding links out of it, and a secret outside. */
function escapable() {
  const root = mkdtempSync(join(tmpdir(), 'ws-'));
  const outside = mkdtempSync(join(tmpdir(), 'outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  mkdirSync(join(root, 's', 'inner-folder'), { recursive: true });
  symlinkSync(join(outside, 'secret.txt'), join(root, 's', 'file-link'));
  symlinkSync(outside, join(root, 's', 'folder-link'));
  symlinkSync(join(outside, 'missing.txt'), join(root, 's', 'dangling-file'));
  symlinkSync(join(outside, 'missing'), join(root, 's', 'dangling-folder'));
  writeFileSync(join(root, 's', 'inside.txt'), 'inside');
  symlinkSync(join(root, 's', 'inside.txt'), join(root, 's', 'inner-link'));
  symlinkSync(join(root, 's', 'inner-folder'), join(root, 's', 'inner-folder-link'));
  return { workspace: new LocalDirectoryWorkspace(root), root, outside };
}

/** The error `act` fails with; a call that succeeds fails the test. */
async function failure(act: Promise<unknown>): Promise<Error> {
  return act.then(
    () => expect.fail('the call succeeded'),
    (error: Error) => error,
  );
}

describe('LocalDirectoryWorkspace confinement', () => {
  it.each([
    ['writing onto a dangling link to a file', 'dangling-file', 'missing.txt'],
    ['writing into a dangling link to a folder', 'dangling-folder/new.txt', 'missing'],
  ])('refuses %s, creating nothing outside', async (_case, path, target) => {
    const { workspace, root, outside } = escapable();
    const error = await failure(workspace.write('s', path, 'x'));
    expect(error.message).toBe(
      `"${path.split('/')[0]}" is a symbolic link to nothing that exists: the workspace follows no dangling link.`,
    );
    expect(error.message).not.toContain(root);
    expect(existsSync(join(outside, target))).toBe(false);
    await expect(workspace.read('s', path, WHOLE)).rejects.toThrow('the workspace follows no dangling link');
  });

  it.each([
    ['reading a linked file', (ws: LocalDirectoryWorkspace) => ws.read('s', 'file-link', WHOLE)],
    [
      'reading through a linked folder',
      (ws: LocalDirectoryWorkspace) => ws.read('s', 'folder-link/secret.txt', WHOLE),
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
      const error = await failure(act(workspace));
      expect(error.message).toMatch(
        /^"(file|folder)-link" is a symbolic link that leads out of the workspace\.$/,
      );
      expect(error.message).not.toContain(root);
      expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
      expect(existsSync(join(outside, 'new'))).toBe(false);
    },
  );

  it('refuses a session folder that is a link out of the workspace', async () => {
    const { root, outside } = escapable();
    symlinkSync(outside, join(root, 'linked'));
    const workspace = new LocalDirectoryWorkspace(root);
    await expect(workspace.write('linked', 'x.txt', 'x')).rejects.toThrow(
      "The session's workspace folder is a symbolic link, not a plain folder.",
    );
    await expect(workspace.read('linked', 'secret.txt', WHOLE)).rejects.toThrow('not a plain folder');
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
  });

  it('follows links that stay inside the session folder, for reading, writing and listing', async () => {
    const { workspace } = escapable();
    expect((await workspace.read('s', 'inner-link', WHOLE)).content).toBe('inside');
    await workspace.write('s', 'inner-link', 'rewritten');
    await workspace.write('s', 'inner-folder-link/new.txt', 'new');
    expect((await workspace.read('s', 'inside.txt', WHOLE)).content).toBe('rewritten');
    expect(await workspace.list('s', 'inner-folder-link')).toEqual([
      { path: 'inner-folder-link/new.txt', type: 'file', size: 3 },
    ]);
  });

  it('lists only what it would use: links out or to nothing are left out', async () => {
    const { workspace } = escapable();
    expect(await workspace.list('s', '')).toEqual([
      { path: 'inner-folder', type: 'folder' },
      { path: 'inner-folder-link', type: 'folder' },
      { path: 'inner-link', type: 'file', size: 6 },
      { path: 'inside.txt', type: 'file', size: 6 },
    ]);
  });

  it('refuses a file with another hard link, leaving the outside file unread and unchanged', async () => {
    const { workspace, root, outside } = escapable();
    linkSync(join(outside, 'secret.txt'), join(root, 's', 'hard.txt'));
    const message = '"hard.txt" has other hard links (2 in all): the workspace uses only files linked once.';
    expect((await failure(workspace.read('s', 'hard.txt', WHOLE))).message).toBe(message);
    expect((await failure(workspace.write('s', 'hard.txt', 'overwritten'))).message).toBe(message);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  // The limit only catches a hang: each call ends in milliseconds.
  it('refuses a FIFO at once for reading, writing and listing, and keeps serving other files', {
    timeout: 20_000,
  }, async () => {
    const { workspace, root } = escapable();
    execFileSync('mkfifo', [join(root, 's', 'pipe')]);
    // More attempts than libuv has threads: a blocking open would leave none for the last read.
    const reads = Array.from({ length: 8 }, () => failure(workspace.read('s', 'pipe', WHOLE)));
    for (const error of await Promise.all(reads))
      expect(error.message).toBe('"pipe" is not a regular file (FIFO).');
    expect((await failure(workspace.write('s', 'pipe', 'x'))).message).toBe(
      '"pipe" is not a regular file (FIFO).',
    );
    expect((await failure(workspace.list('s', 'pipe'))).message).toBe('"pipe" is not a folder (FIFO).');
    expect((await workspace.list('s', '')).map(({ path }) => path)).not.toContain('pipe');
    expect((await workspace.read('s', 'inside.txt', WHOLE)).content).toBe('inside');
  });

  it('refuses a socket for reading and writing', async () => {
    const { workspace, root } = escapable();
    const server = createServer();
    await new Promise<void>((listening) => server.listen(join(root, 's', 'socket'), listening));
    try {
      const message = '"socket" is not a regular file (socket).';
      expect((await failure(workspace.read('s', 'socket', WHOLE))).message).toBe(message);
      expect((await failure(workspace.write('s', 'socket', 'x'))).message).toBe(message);
    } finally {
      server.close();
    }
  });

  it.each(['.', '..', 'a/b', ''])('refuses the session id %j', async (session) => {
    const { workspace } = escapable();
    await expect(workspace.read(session, 'inside.txt', WHOLE)).rejects.toThrow(
      'A session id is 1 to 128 letters',
    );
  });

  it('names a missing file by its workspace path only', async () => {
    const { workspace, root } = escapable();
    const error = await failure(workspace.read('s', 'missing/file.txt', WHOLE));
    expect(error.message).toBe('No such file or folder in the workspace: "missing/file.txt".');
    expect(error.message).not.toContain(root);
  });
});

describe('LocalDirectoryWorkspace quota', () => {
  it('counts the files already on disk, so a new instance (a restart) keeps the quota', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ws-'));
    await new LocalDirectoryWorkspace(root, { quota: { files: 2 } }).write('s', 'a.md', 'a');
    mkdirSync(join(root, 's', 'b'));
    writeFileSync(join(root, 's', 'b', 'c.md'), 'c');
    const restarted = new LocalDirectoryWorkspace(root, { quota: { files: 2 } });
    await expect(restarted.write('s', 'd.md', 'd')).rejects.toThrow(
      'The workspace quota is 2 files per session',
    );
    expect(existsSync(join(root, 's', 'd.md'))).toBe(false);
  });
});

describe('LocalDirectoryWorkspace paging', () => {
  it('reads a window of a file larger than Node could hold whole, loading only that window', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ws-'));
    mkdirSync(join(root, 's'));
    // Sparse: 3 GiB on paper, a few bytes on disk; over the 2 GiB `readFile` accepts.
    const size = 3 * 1024 ** 3;
    const descriptor = openSync(join(root, 's', 'big.txt'), 'w');
    ftruncateSync(descriptor, size);
    writeSync(descriptor, 'the end', size - 7);
    closeSync(descriptor);
    const workspace = new LocalDirectoryWorkspace(root);
    const before = process.memoryUsage().arrayBuffers;
    const middle = await workspace.read('s', 'big.txt', { offset: size / 2, limit: 1_000_000 });
    const end = await workspace.read('s', 'big.txt', { offset: size - 7, limit: 100 });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 ** 2);
    expect(middle).toMatchObject({ offset: size / 2, size, nextOffset: size / 2 + 1_000_000 });
    expect(middle.content).toHaveLength(1_000_000);
    expect(end).toEqual({ content: 'the end', offset: size - 7, size });
  });
});
