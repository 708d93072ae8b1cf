import type { SessionListItem } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { sessionsTotals } from './sessions-totals.js';

const item = (usage: SessionListItem['usage']): SessionListItem => ({
  session: 's',
  title: null,
  status: 'idle',
  turns: 1,
  lastSeq: 2,
  lastTurn: null,
  versions: [],
  usage,
  queued: [],
  createdAt: '2026-11-23T10:00:00.000Z',
  lastActivity: null,
});

describe('sessionsTotals', () => {
  it('adds up the sessions, their tokens and their cost', () => {
    const totals = sessionsTotals([
      item({ input: 100, output: 10, costUsd: 0.5 }),
      item({ input: 200, output: 20, costUsd: 0.25 }),
    ]);
    expect(totals).toEqual({ sessions: 2, input: 300, output: 30, costUsd: 0.75 });
  });

  it('leaves the cost out when one session has none, and counts nothing in an empty list', () => {
    const totals = sessionsTotals([item({ input: 1, output: 2, costUsd: 1 }), item({ input: 3, output: 4 })]);
    expect(totals).toEqual({ sessions: 2, input: 4, output: 6 });
    expect(sessionsTotals([])).toEqual({ sessions: 0, input: 0, output: 0, costUsd: 0 });
  });
});
