import { describe, expect, it } from 'vitest';
import { formatSeconds } from './elapsed.js';

describe('formatSeconds', () => {
  it.each([
    [0.42, '0.4 s'],
    [9.96, '10.0 s'],
    [12.4, '12 s'],
    [185, '3 min 05 s'],
    [-1, '0.0 s'],
  ])('says %d seconds as %s', (seconds, said) => {
    expect(formatSeconds(seconds)).toBe(said);
  });
});
