import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BATCH_DEPTH, parseBatch, stripFence } from './parse-batch.js';

/** The A5 rule as a regular expression: right, but quadratic on long blank runs before the fence. */
const FENCED_BODY = /^```[^\n`]*\n([\s\S]*?)\n?[ \t]*```$/;

describe('stripFence', () => {
  it('keeps what the A5 fence expression keeps, for any text of fence characters', () => {
    const text = fc.string({
      unit: fc.constantFrom('`', '```', '\n', ' ', '\t', 'a', 'json'),
      maxLength: 30,
    });
    fc.assert(
      fc.property(text, (body) => {
        expect(stripFence(body)).toBe(FENCED_BODY.exec(body)?.[1] ?? body);
      }),
      { numRuns: 5000 },
    );
  });

  it('strips a fence around a megabyte of spaces', () => {
    const body = `\`\`\`json\n[]${' '.repeat(1_000_000)}x\n\`\`\``;
    expect(stripFence(body)).toBe(`[]${' '.repeat(1_000_000)}x`);
  });
});

/** A batch of one call whose arguments hold `levels` nested arrays. */
const nested = (levels: number) =>
  `[{"name": "echo", "args": {"a": ${'['.repeat(levels)}${']'.repeat(levels)}}}]`;

describe('parseBatch caps', () => {
  it('accepts a body nested exactly as deep as the cap', () => {
    // The outer array and the call and args objects are three levels.
    expect(parseBatch(nested(MAX_BATCH_DEPTH - 3)).ok).toBe(true);
  });

  it('refuses a body nested one level deeper, or 100,000 levels, with a batch-level reason naming the cap', () => {
    for (const levels of [MAX_BATCH_DEPTH - 2, 100_000]) {
      const batch = parseBatch(nested(levels));
      expect(batch).toEqual({
        ok: false,
        reason: expect.stringContaining(`more than ${MAX_BATCH_DEPTH} levels deep`),
      });
    }
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const args = JSON.stringify({ text: `\\"${'[{'.repeat(500)}` });
    expect(parseBatch(`[{"name": "echo", "args": ${args}}]`).ok).toBe(true);
  });
});
