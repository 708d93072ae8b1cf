import { describe, expect, it } from 'vitest';
import { closestName } from './closest-name.js';

const FLAGS = ['--model', '--mode', '--max-steps', '--max-cost', '--tools', '--session', '--mcp'];

describe('closestName', () => {
  it.each([
    ['--modle', '--model'],
    ['--mdoel', '--model'],
    ['--max-step', '--max-steps'],
    ['--tool', '--tools'],
    ['--sesion', '--session'],
    ['--MODEL', '--model'],
    ['--mode', '--mode'],
  ])('takes %s for %s', (typed, meant) => {
    expect(closestName(typed, FLAGS)).toBe(meant);
  });

  it.each(['--verbose', '--zzz', '--prompt'])(
    'suggests nothing for %s, which is like none of them',
    (typed) => {
      expect(closestName(typed, FLAGS)).toBeUndefined();
    },
  );
});
