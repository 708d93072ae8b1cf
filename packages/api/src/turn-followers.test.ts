import { describe, expect, it } from 'vitest';
import { TurnFollowers } from './turn-followers.js';

describe('TurnFollowers', () => {
  it('counts the streams following each turn until each is released, once', () => {
    const followers = new TurnFollowers();
    const first = followers.follow('s', 't-1');
    const second = followers.follow('s', 't-1');
    expect(followers.followed('s', 't-1')).toBe(true);
    expect(followers.followed('s', 't-2')).toBe(false);
    first();
    first();
    expect(followers.followed('s', 't-1')).toBe(true);
    second();
    expect(followers.followed('s', 't-1')).toBe(false);
  });
});
