import type { LoggedEvent } from '@agentstep/client';
import { describe, expect, it } from 'vitest';
import { isTurnRunning } from './is-turn-running.js';

const at = 1_700_000_000;
const user = (seq: number): LoggedEvent => ({ seq, type: 'user', content: 'Go', timestamp: at });
const end = (seq: number): LoggedEvent => ({
  seq,
  type: 'turn_end',
  content: 'The turn finished.',
  timestamp: at,
  payload: { turn: 't', status: 'done' },
});
const respond = (seq: number): LoggedEvent => ({ seq, type: 'respond', content: 'Hi', timestamp: at });

describe('isTurnRunning', () => {
  it.each([
    ['no events', [], false],
    ['a user message with no end', [user(1), respond(2)], true],
    ['an ended turn', [user(1), respond(2), end(3)], false],
    ['a second turn after an ended one', [user(1), end(2), user(3)], true],
  ])('is right for %s', (_, items, running) => {
    expect(isTurnRunning(items)).toBe(running);
  });
});
