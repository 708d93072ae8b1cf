import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { wireEventSchema } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io/memory-io.js';
import { main } from '../main.js';

/** The model output of the spec's example. */
const EXAMPLE = readFileSync(new URL('../../../../examples/model-output.txt', import.meta.url), 'utf8');

const lines = (out: string[]) =>
  out
    .join('')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('agentstep parse', () => {
  it('prints one wire event per line with a timestamp in seconds', async () => {
    const io = memoryIo({
      stdin: ['<think>plan</think><execute>[{"name": "read", "args": {"file": "a"}}]</execute>'],
    });
    expect(await main(['parse'], io)).toBe(0);
    expect(lines(io.out)).toEqual([
      { type: 'think', content: 'plan', timestamp: 1_700_000_000 },
      {
        type: 'call',
        content: '{"name":"read","args":{"file":"a"}}',
        payload: { index: 0 },
        timestamp: 1_700_000_000,
      },
      { type: 'execute', timestamp: 1_700_000_000 },
    ]);
  });

  it('parses the spec example: think, four calls with their edge cases, execute, nothing after', async () => {
    const io = memoryIo({ stdin: [EXAMPLE] });
    expect(await main(['parse'], io)).toBe(0);
    const events = lines(io.out).map((line) => wireEventSchema.parse(line));
    expect(events.map((event) => event.type)).toEqual(['think', 'call', 'call', 'call', 'call', 'execute']);
    const args = events.flatMap((event) => (event.type === 'call' ? [JSON.parse(event.content).args] : []));
    expect(args[1].content).toBe('<html><body>Hello</body></html>');
    expect(args[2].content).toBe('Hello </write> world </execute> still inside');
    expect(args[3].cmd).toBe(`echo "hello" && echo 'world'`);
  });

  it('gives the spec example’s events at chunk sizes 1, 4 and 64 as whole', async () => {
    const whole = memoryIo({ stdin: [EXAMPLE] });
    await main(['parse'], whole);
    for (const size of ['1', '4', '64']) {
      const chunked = memoryIo({ stdin: [EXAMPLE] });
      await main(['parse', '--chunk-size', size], chunked);
      expect(chunked.out).toEqual(whole.out);
    }
  });

  it('exits 0 on random bytes in token mode and prints valid events', async () => {
    const io = memoryIo({ stdin: [randomBytes(4096).toString('utf8')] });
    expect(await main(['parse', '--mode', 'token', '--chunk-size', '3'], io)).toBe(0);
    expect(io.err).toEqual([]);
    for (const line of lines(io.out)) expect(wireEventSchema.safeParse(line).success).toBe(true);
  });

  it('gives the same events for any --chunk-size in event mode', async () => {
    const input =
      'Intro <think>a</think> <execute>[{"name": "x", "args": {"s": "</execute>"}}, 3]</execute> tail';
    const whole = memoryIo({ stdin: [input] });
    await main(['parse'], whole);
    for (const size of ['1', '4', '64']) {
      const chunked = memoryIo({ stdin: [input] });
      await main(['parse', '--chunk-size', size], chunked);
      expect(chunked.out).toEqual(whole.out);
    }
  });

  it('reads a JSON array of chunks with --chunks-json, and streams deltas in token mode', async () => {
    const io = memoryIo({ stdin: [JSON.stringify(['Hel', 'lo <thi', 'nk>hm</think>'])] });
    expect(await main(['parse', '--chunks-json', '--mode', 'token'], io)).toBe(0);
    expect(lines(io.out).map(({ type, content }) => [type, content])).toEqual([
      ['respond', 'Hel'],
      ['respond', 'lo'],
      ['think', 'hm'],
    ]);
  });

  it('marks invalid elements with their index', async () => {
    const io = memoryIo({ stdin: ['<execute>[{"name": "a", "args": {}}, {"oops": 1}]</execute>'] });
    await main(['parse'], io);
    expect(lines(io.out)[1]).toMatchObject({ type: 'error', payload: { index: 1, element: '{"oops":1}' } });
  });

  it.each([['garbage \u0000\uffff <<<>>> </execute> {"a":'], ['<execute>'], ['']])(
    'exits 0 on %j',
    async (input) => {
      const io = memoryIo({ stdin: [input] });
      expect(await main(['parse'], io)).toBe(0);
      expect(io.err).toEqual([]);
    },
  );

  it.each([
    [['--mode', 'fast'], '--mode must be "event" or "token"'],
    [['--chunk-size', '0'], '--chunk-size must be a whole number of at least 1'],
    [['--chunk-size', 'abc'], '--chunk-size must be a whole number'],
    [['--frobnicate'], 'unknown option --frobnicate.'],
  ])('rejects %j with exit 2 and a reason', async (args, reason) => {
    const io = memoryIo();
    expect(await main(['parse', ...args], io)).toBe(2);
    expect(io.err.join('')).toContain(reason);
  });

  it('rejects --chunks-json input that is not an array of strings', async () => {
    const io = memoryIo({ stdin: ['[1, 2]'] });
    expect(await main(['parse', '--chunks-json'], io)).toBe(2);
    expect(io.err.join('')).toContain('expects stdin to be a JSON array of strings');
  });
});
