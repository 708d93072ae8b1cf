import { describe, expect, it } from 'vitest';
import { usesColor } from './uses-color.js';

describe('usesColor', () => {
  it.each([
    { on: 'a terminal', stream: { isTTY: true }, env: {}, color: true },
    { on: 'a terminal with NO_COLOR=1', stream: { isTTY: true }, env: { NO_COLOR: '1' }, color: false },
    {
      on: 'a terminal with NO_COLOR=false',
      stream: { isTTY: true },
      env: { NO_COLOR: 'false' },
      color: false,
    },
    { on: 'a terminal with NO_COLOR empty', stream: { isTTY: true }, env: { NO_COLOR: '' }, color: true },
    { on: 'a pipe', stream: { isTTY: false }, env: {}, color: false },
    { on: 'a file', stream: {}, env: {}, color: false },
  ])('on $on: $color', ({ stream, env, color }) => {
    expect(usesColor(stream, env)).toBe(color);
  });
});
