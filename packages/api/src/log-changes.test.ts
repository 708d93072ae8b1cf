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
});
