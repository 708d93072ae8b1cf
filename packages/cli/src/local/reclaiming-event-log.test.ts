import { endTurn, inMemoryStores, SessionBusyError, submitTurn, systemClock } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { reclaimingEventLog } from './reclaiming-event-log.js';

/** A session held by turn `old`, as a process that died left it. */
async function heldSession() {
  const stores = inMemoryStores();
  const deps = { ...stores, clock: systemClock };
  await submitTurn({ session: 's', turn: 'old', prompt: 'Go' }, deps);
  return deps;
}

describe('reclaimingEventLog', () => {
  it('a busy session has the orphans closed, then is taken: the dead holder no longer blocks it', async () => {
    const deps = await heldSession();
    const closeOrphans = async () => {
      await endTurn({ session: 's', turn: 'old', status: 'failed', message: 'Its process died.' }, deps);
      return [{ session: 's', turn: 'old' }];
    };
    const log = reclaimingEventLog(deps.log, closeOrphans);
    await expect(log.acquireTurn('s', 'new')).resolves.toEqual({});
    expect((await deps.log.holder('s'))?.turn).toBe('new');
  });

  it('a live holder still means SessionBusy, after one look for orphans', async () => {
    const deps = await heldSession();
    let looked = 0;
    const log = reclaimingEventLog(deps.log, async () => {
      looked++;
      return [];
    });
    await expect(log.acquireTurn('s', 'new')).rejects.toBeInstanceOf(SessionBusyError);
    expect(looked).toBe(1);
    expect((await deps.log.holder('s'))?.turn).toBe('old');
  });
});
