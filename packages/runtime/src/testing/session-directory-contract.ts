import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SessionDirectory } from '../session/session-directory.js';

/** The behaviour every {@link SessionDirectory} adapter must have; each test uses its own owner. */
export function describeSessionDirectoryContract(adapter: string, create: () => SessionDirectory): void {
  describe(`SessionDirectory contract: ${adapter}`, () => {
    it('lists an owner’s ids of one kind newest first, ties by id', async () => {
      const directory = create();
      const owner = randomUUID();
      await directory.add(owner, 'session', { id: 's-old', createdAt: 1_000 });
      await directory.add(owner, 'session', { id: 's-new', createdAt: 3_000 });
      await directory.add(owner, 'session', { id: 's-a', createdAt: 2_000 });
      await directory.add(owner, 'session', { id: 's-b', createdAt: 2_000 });
      await directory.add(owner, 'workflow', { id: 'wf-1', createdAt: 5_000 });
      expect((await directory.list(owner, 'session')).map(({ id }) => id)).toEqual([
        's-new',
        's-b',
        's-a',
        's-old',
      ]);
      expect(await directory.list(owner, 'workflow')).toEqual([{ id: 'wf-1', createdAt: 5_000 }]);
    });

    it('keeps the first record of an id added again', async () => {
      const directory = create();
      const owner = randomUUID();
      await directory.add(owner, 'session', { id: 's-1', createdAt: 1_000 });
      await directory.add(owner, 'session', { id: 's-1', createdAt: 9_000 });
      expect(await directory.list(owner, 'session')).toEqual([{ id: 's-1', createdAt: 1_000 }]);
    });

    it('lists nothing of another owner', async () => {
      const directory = create();
      await directory.add(randomUUID(), 'session', { id: 's-1', createdAt: 1_000 });
      expect(await directory.list(randomUUID(), 'session')).toEqual([]);
    });
  });
}
