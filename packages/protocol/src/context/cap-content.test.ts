import { describe, expect, it } from 'vitest';
import { capContent } from './cap-content.js';

describe('capContent', () => {
  it.each([
    ['B6 a short string', 'hello', 10],
    ['B6 a string exactly at the cap', 'abcde', 5],
    ['B6 a small object', { a: 1 }, 100],
    ['B6 null', null, 10],
  ])('%s is unchanged', (_rule, content, max) => {
    expect(capContent(content, max)).toBe(content);
  });

  it('B6 counts UTF-8 bytes and never splits a character', () => {
    const capped = String(capContent('é'.repeat(10), 5));
    expect(capped.startsWith('éé\n[truncated: 16 of 20 bytes cut, the first 4 shown.')).toBe(true);
    expect(String(capContent('🙂🙂🙂', 7)).startsWith('🙂\n[truncated: 8 of 12 bytes cut')).toBe(true);
  });

  it('B6 caps a large object as its JSON text', () => {
    const capped = capContent({ rows: Array.from({ length: 100 }, (_, index) => index) }, 20);
    expect(capped).toMatch(
      /^\{"rows":\[0,1,2,3,4,5\n\[truncated: \d+ of \d+ bytes cut, the first 20 shown\./,
    );
  });

  it('B6 says how to read more', () => {
    expect(capContent('z'.repeat(50), 10)).toContain('to see more, ask for a smaller part of it');
  });
});
