import { setTimeout as sleep } from 'node:timers/promises';
import { InMemoryEventLog } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { LogChanges } from './log-changes.js';

describe('LogChanges', () => {
  it('an append through a watched log wakes the waiters of its session only', async () => {
    const changes = new LogChanges();
    const log = changes.watch(new InMemoryEventLog());
    await log.acquireTurn('a', 't');
    const woken: string[] = [];
    const a = changes.wait('a', 60_000).then(() => woken.push('a'));
    void changes.wait('b', 60_000).then(() => woken.push('b'));
    await log.append({ session: 'a', turn: 't', key: 'k', events: [] });
    await a;
    expect(woken).toEqual(['a']);
    changes.notify('b');
  });

  it('a wait with nothing appended settles when its time is up', async () => {
    await expect(new LogChanges().wait('quiet', 5)).resolves.toBeUndefined();
  });

  it('a change between reading the version and waiting is not missed: the wait settles at once', async () => {
    const changes = new LogChanges();
    const seen = changes.version('a');
    changes.notify('a');
    const settled = await Promise.race([changes.wait('a', 60_000, seen).then(() => 'woken'), sleep(1_000)]);
    expect(settled).toBe('woken');
  });
});
