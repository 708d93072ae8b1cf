import { describe, expect, it } from 'vitest';
import { moduleDefault } from './module-default.js';

describe('moduleDefault', () => {
  it("gives an ES module's default export", () => {
    const agent = { name: 'a' };
    expect(moduleDefault({ default: agent })).toBe(agent);
  });

  it("gives a CommonJS module's default within its exports", () => {
    const agent = { name: 'a' };
    expect(moduleDefault({ default: { __esModule: true, default: agent } })).toBe(agent);
  });

  it('gives undefined for a module without one', () => {
    expect(moduleDefault({})).toBeUndefined();
  });
});
