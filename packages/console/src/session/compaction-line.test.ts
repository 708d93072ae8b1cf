import type { Compaction } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { compactionLine } from './compaction-line.js';

const summarized: Compaction = {
  upToSeq: 420,
  summary: 'The user asked for a report; three files were read.',
  tokensBefore: 7950,
  tokensAfter: 1830,
  model: 'openai:gpt-4o',
  strategy: 'summarize',
  turns: 3,
  calls: 12,
};
const { model: _, ...unnamed } = summarized;

describe('compactionLine', () => {
  it.each([
    [
      'a summary, with its model',
      summarized,
      '420 earlier events summarized by openai:gpt-4o · 7,950 → 1,830 tokens',
    ],
    ['a summary without a model', unnamed, '420 earlier events summarized · 7,950 → 1,830 tokens'],
    [
      'events left out',
      { ...unnamed, strategy: 'drop' },
      '420 earlier events left out · 7,950 → 1,830 tokens',
    ],
    [
      'one event',
      { ...summarized, upToSeq: 1 },
      '1 earlier event summarized by openai:gpt-4o · 7,950 → 1,830 tokens',
    ],
  ] satisfies Array<[string, Compaction, string]>)('says %s', (_, compaction, line) => {
    expect(compactionLine(compaction)).toBe(line);
  });
});
