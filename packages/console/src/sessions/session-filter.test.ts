import { describe, expect, it } from 'vitest';
import { filterDescription, NO_FILTER, sessionsQueryOf } from './session-filter.js';

describe('sessionsQueryOf', () => {
  it.each([
    ['nothing for no filter', NO_FILTER, {}],
    ['the trimmed text as q', { ...NO_FILTER, text: '  invoice ' }, { q: 'invoice' }],
    ['no q for blank text', { ...NO_FILTER, text: '   ' }, {}],
    ['a status as it is', { ...NO_FILTER, status: 'waiting' }, { status: 'waiting' }],
    ['failed as lastTurn=failed', { ...NO_FILTER, status: 'failed' }, { lastTurn: 'failed' }],
  ] as const)('asks %s', (_, filter, query) => {
    expect(sessionsQueryOf(filter)).toEqual(query);
  });

  it('asks for sessions created from the local midnight that starts the date', () => {
    const { createdAfter = '' } = sessionsQueryOf({ ...NO_FILTER, createdFrom: '2026-11-20' });
    expect(Date.parse(createdAfter)).toBe(new Date(2026, 10, 20).getTime());
  });
});

describe('filterDescription', () => {
  it('says each part of the filter, and nothing for none', () => {
    expect(filterDescription(NO_FILTER)).toBe('');
    expect(filterDescription({ text: ' tax ', status: 'failed', createdFrom: '2026-11-20' })).toBe(
      '“tax”, whose last turn failed, created on or after 2026-11-20',
    );
    expect(filterDescription({ ...NO_FILTER, status: 'idle' })).toBe('idle');
  });
});
