import { buildMessages, createParser, type ParseMode } from '../src/index.js';
import { sessionLog } from './event-log.js';
import { printHostileInputs } from './hostile-inputs.js';
import { chunksOf, mixedOutput, reasoningTrace } from './inputs.js';
import { medianMs, verdict } from './measure.js';

const SIZES = [25_000, 100_000, 400_000, 1_600_000];
const CHUNK_SIZES: Array<number | undefined> = [1, 4, 64, undefined];
const MB = 1_000_000;

function parseAll(chunks: string[], mode: ParseMode): void {
  const parser = createParser({ mode });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
}

/** Parser throughput in MB/s for one input at every chunk size. */
function parserRow(text: string, mode: ParseMode): number[] {
  return CHUNK_SIZES.map((size) => {
    const chunks = chunksOf(text, size);
    const ms = medianMs(() => parseAll(chunks, mode), text.length > 500_000 ? 5 : 9);
    return text.length / MB / (ms / 1000);
  });
}

function printParser(): string[] {
  const verdicts: string[] = [];
  const header = CHUNK_SIZES.map((size) =>
    (size === undefined ? 'whole' : `chunk ${size}`).padStart(10),
  ).join('');
  for (const [name, make] of [
    ['reasoning trace', reasoningTrace],
    ['mixed prose and blocks', mixedOutput],
  ] as const) {
    for (const mode of ['event', 'token'] as const) {
      console.log(`\nParser throughput, MB/s: ${name}, ${mode} mode`);
      console.log(`${'size'.padEnd(10)}${header}`);
      const rows = SIZES.map((bytes) => parserRow(make(bytes), mode));
      rows.forEach((row, index) => {
        const label = `${(SIZES[index] ?? 0) / 1000} KB`;
        console.log(`${label.padEnd(10)}${row.map((rate) => rate.toFixed(1).padStart(10)).join('')}`);
      });
      const at4 = rows.map((row) => row[1] ?? 0);
      const smallest = at4[0] ?? 0;
      const largest = at4.at(-1) ?? 0;
      if (name === 'reasoning trace' && mode === 'event') {
        verdicts.push(
          verdict(
            'parser at 4-char chunks, 1.6 MB reasoning trace',
            `${largest.toFixed(1)} MB/s`,
            largest >= 10,
            '>= 10 MB/s',
          ),
        );
      }
      verdicts.push(
        verdict(
          `linear time (${name}, ${mode}): MB/s at 1.6 MB vs 25 KB, 4-char chunks`,
          `${((largest / smallest) * 100).toFixed(0)}%`,
          largest / smallest > 0.5,
          'throughput does not fall with size (> 50%)',
        ),
      );
    }
  }
  return verdicts;
}

function printBuildMessages(): string[] {
  console.log('\nbuildMessages (context assembly), median of 15 runs');
  return [1_000, 10_000].map((count) => {
    const log = sessionLog(count);
    const ms = medianMs(() => buildMessages(log), 15);
    console.log(`${`${count} events`.padEnd(14)}${ms.toFixed(2)} ms`);
    return verdict(
      `buildMessages, ${count} events`,
      `${ms.toFixed(2)} ms`,
      count < 10_000 || ms <= 50,
      '10k events <= 50 ms',
    );
  });
}

console.log(`AgentStep protocol benchmarks (Node ${process.version}, ${process.arch})`);
const verdicts = [...printParser(), ...printHostileInputs(), ...printBuildMessages()];
console.log(`\n${verdicts.join('\n')}`);
