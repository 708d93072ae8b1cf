import { type PersistedEvent, resultEvent, type StoredEvent } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { TurnTallies, tallyOf } from './turn-tallies.js';

const call = (name: string, args: object): PersistedEvent => ({
  type: 'call',
  content: JSON.stringify({ name, args }),
  payload: { index: 0 },
  timestamp: 1,
});
const result = (success: boolean): PersistedEvent => ({
  ...resultEvent([
    success
      ? { tool: 'echo', status: 'success', content: 'x' }
      : { tool: 'echo', status: 'failure', content: 'no' },
  ]),
  timestamp: 1,
});

/** Turn `t`'s steps, one call and its result each: `echo {n}` for each n, key order varying. */
function turnLog(calls: Array<[string, object, boolean]>): StoredEvent[] {
  const log: StoredEvent[] = [{ session: 's', seq: 1, event: { type: 'user', content: 'go', timestamp: 1 } }];
  calls.forEach(([name, args, success], index) => {
    const batch = `t.${index + 1}`;
    log.push({ session: 's', seq: log.length + 1, batch, position: 0, event: call(name, args) });
    log.push({ session: 's', seq: log.length + 1, batch, event: result(success) });
  });
  return log;
}

const plain = (tally: ReturnType<typeof tallyOf>) => ({
  top: tally.top,
  calls: [...tally.calls.values()],
  progressed: [...tally.progressed],
});

describe('TurnTallies', () => {
  const calls: Array<[string, object, boolean]> = [
    ['echo', { a: 1, b: 2 }, true],
    ['echo', { b: 2, a: 1 }, false],
    ['read', { file: 'x' }, true],
    ['echo', { a: 1, b: 2 }, false],
  ];

  it('extends its counts step by step to what counting the whole log gives', () => {
    const tallies = new TurnTallies();
    const log = turnLog(calls);
    for (let end = 1; end <= log.length; end += 2) {
      const prefix = log.slice(0, end);
      expect(plain(tallies.tally('s', 't', prefix))).toEqual(plain(tallyOf('t', prefix)));
    }
    expect(tallies.tally('s', 't', log).top).toEqual({ name: 'echo', args: '{"a":1,"b":2}', count: 3 });
  });

  it('counts anew for another turn or a log that does not extend what it counted', () => {
    const tallies = new TurnTallies();
    const log = turnLog(calls);
    tallies.tally('s', 't', log);
    expect(tallies.tally('s', 'other', log).calls.size).toBe(0);
    const shorter = log.slice(0, 3);
    expect(plain(tallies.tally('s', 't', shorter))).toEqual(plain(tallyOf('t', shorter)));
  });
});
