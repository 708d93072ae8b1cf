import type { PersistedEvent, StoredEvent } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { sessionTitle, TITLE_LENGTH } from './session-title.js';

const at = (seq: number, event: PersistedEvent): StoredEvent => ({ session: 'stored', seq, event });
const user = (seq: number, content: string) => at(seq, { type: 'user', content, timestamp: 1 });
const titleOf = (message: string) => sessionTitle([user(1, message)]);

describe('sessionTitle', () => {
  it.each([
    ['a short message as it is', 'Book a table', 'Book a table'],
    ['trimmed, every run of whitespace one space', '  Book\n\n a \t table  ', 'Book a table'],
    ['80 characters whole', 'x'.repeat(80), 'x'.repeat(80)],
    ['81 characters cut to 79 and …', 'x'.repeat(81), `${'x'.repeat(79)}…`],
    ['a cut at a space without it', `${'x'.repeat(78)} yz`, `${'x'.repeat(78)}…`],
    ['emoji counted as one character each, never split', '😀'.repeat(100), `${'😀'.repeat(79)}…`],
    ['only whitespace: null', ' \n\t ', null],
  ])('titles %s', (_, message, title) => {
    expect(titleOf(message)).toBe(title);
  });

  it('takes the first message of the log, and null from a log without one', () => {
    const answer = at(2, { type: 'respond', content: 'Done.', timestamp: 1 });
    expect(sessionTitle([user(1, 'First'), answer, user(3, 'Second')])).toBe('First');
    expect(sessionTitle([answer])).toBeNull();
    expect(sessionTitle([])).toBeNull();
  });

  it('reads past a long run of whitespace at the head of a long message', () => {
    const message = `Start${' '.repeat(5_000)}${'word '.repeat(40)}`;
    expect(titleOf(message)).toBe(`Start ${'word '.repeat(14)}wor…`);
    expect(titleOf(`${'long '.repeat(100_000)}`)?.length).toBe(TITLE_LENGTH);
  });
});
