import { createParser, type ParseMode } from '../src/index.js';
import { chunksOf } from './inputs.js';
import { medianMs, verdict } from './measure.js';

/** How much more time 8× the input may take: linear, with room for noise and garbage collection. */
const MAX_GROWTH = 12;

/** Model output built to break a parser: each at a size `n` (calls, levels, blocks or spaces). */
const HOSTILE: ReadonlyArray<[string, (n: number) => string, number]> = [
  [
    'arguments nested n deep',
    (n) => `<execute>[{"name":"a","args":{"x":${'['.repeat(n)}${']'.repeat(n)}}}]</execute>`,
    12_500,
  ],
  [
    'an array of n calls',
    (n) => `<execute>[${Array.from({ length: n }, () => '{"name":"echo","args":{}}').join(',')}]</execute>`,
    125_000,
  ],
  ['n <think> blocks', (n) => '<think>a</think>'.repeat(n), 125_000],
  ['a fence around n spaces', (n) => `<execute>\`\`\`json\n[]${' '.repeat(n)}\n\`\`\`</execute>`, 125_000],
  ['n lines of fences in prose', (n) => '```\n'.repeat(n), 30_000],
];

function parseAll(chunks: string[], mode: ParseMode): void {
  const parser = createParser({ mode });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
}

/** Time at n and 8n of each hostile input, at 64-character chunks, in both modes. */
export function printHostileInputs(): string[] {
  console.log('\nHostile model output: parse time at n and 8n (64-char chunks, median of 5)');
  const verdicts: string[] = [];
  for (const [name, make, n] of HOSTILE) {
    for (const mode of ['event', 'token'] as const) {
      const [small, large] = [n, 8 * n].map((size) => {
        const chunks = chunksOf(make(size), 64);
        return medianMs(() => parseAll(chunks, mode), 5);
      }) as [number, number];
      console.log(
        `${`${name}, ${mode}`.padEnd(40)}${small.toFixed(1).padStart(9)} ms${large.toFixed(1).padStart(10)} ms`,
      );
      const growth = large / Math.max(small, 0.01);
      verdicts.push(
        verdict(
          `linear on ${name} (${mode})`,
          `8x input, ${growth.toFixed(1)}x time`,
          growth <= MAX_GROWTH,
          `<= ${MAX_GROWTH}x`,
        ),
      );
    }
  }
  return verdicts;
}
