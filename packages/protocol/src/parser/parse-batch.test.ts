import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BATCH_CAPS } from './batch-caps.js';
import { parseBatch, stripFence } from './parse-batch.js';

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
    expect(parseBatch(nested(BATCH_CAPS.depth - 3)).ok).toBe(true);
  });

  it('refuses a body nested one level deeper, or 100,000 levels, with a batch-level reason naming the cap', () => {
    for (const levels of [BATCH_CAPS.depth - 2, 100_000]) {
      const batch = parseBatch(nested(levels));
      expect(batch).toEqual({
        ok: false,
        reason: expect.stringContaining(`more than ${BATCH_CAPS.depth} levels deep`),
      });
    }
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const args = JSON.stringify({ text: `\\"${'[{'.repeat(500)}` });
    expect(parseBatch(`[{"name": "echo", "args": ${args}}]`).ok).toBe(true);
  });
});

describe('parseBatch caps on size', () => {
  const calls = (count: number) =>
    JSON.stringify(Array.from({ length: count }, () => ({ name: 'echo', args: {} })));

  it('accepts as many calls as the cap, and refuses one more with a batch-level reason', () => {
    expect(parseBatch(calls(BATCH_CAPS.calls)).ok).toBe(true);
    expect(parseBatch(calls(BATCH_CAPS.calls + 1))).toEqual({
      ok: false,
      reason: expect.stringContaining(
        `has ${BATCH_CAPS.calls + 1} calls; a batch holds at most ${BATCH_CAPS.calls}`,
      ),
    });
  });

  it('refuses a call over the byte cap at its own index, counting UTF-8 bytes, and keeps the others', () => {
    const big = 'é'.repeat(BATCH_CAPS.callBytes / 2); // two bytes each: over the cap with the call's keys
    const batch = parseBatch(
      JSON.stringify([
        { name: 'echo', args: { text: big } },
        { name: 'echo', args: {} },
      ]),
    );
    expect(batch.ok && batch.elements.map((element) => element.ok)).toEqual([false, true]);
    expect(batch.ok && !batch.elements[0]?.ok && batch.elements[0]?.reason).toContain(
      `over the protocol's cap of ${BATCH_CAPS.callBytes} bytes per call`,
    );
  });
});
