import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createParser, createPositionTracker } from './create-parser.js';
import { parse } from './parse.js';
import type { ParsedEvent, ParseMode } from './parsed-event.js';

/** Feeds `text` split at `cuts` and collects every event. */
function streamed(text: string, cuts: number[], mode: ParseMode = 'event'): ParsedEvent[] {
  const parser = createParser({ mode });
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const events: ParsedEvent[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    events.push(...parser.push(text.slice(from, point)));
    from = point;
  }
  return [...events, ...parser.end()];
}

function everyCharacter(text: string, mode: ParseMode): ParsedEvent[] {
  return streamed(
    text,
    [...text].map((_, index) => index),
    mode,
  );
}

/** Protocol-heavy text: markers, JSON punctuation, fences and arbitrary strings. */
const protocolText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '<think>',
        '</think>',
        '<execute>',
        '</execute>',
        '<results>',
        '</results>',
        '<end>',
        '<',
        '</',
        '"',
        '\\',
        '[',
        ']',
        ',',
        '{"name": "read", "args": {"file": "a</execute>b"}}',
        '{"name": "x", "args": 1}',
        '```',
        '```json\n',
        ' ',
        '\n',
        'é漢🙂',
      ),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

const sample = [
  'Intro text.\n<think>\nI should read two files.\n</think>\n',
  '```json\n<execute>\n[\n  {"name": "read", "args": {"file": "a</execute>.txt"}},\n',
  '  {"name": "read", "args": {"file": "b.txt"}}\n]\n</execute>\n```\nignored',
].join('');

describe('createParser', () => {
  it('A2 a marker split at every character boundary parses like the whole text', () => {
    expect(everyCharacter(sample, 'event')).toEqual(parse(sample));
  });

  it.each([
    [
      'a "<" inside an execute body with a partial closer later in the chunk',
      '<execute><think></execute><',
      13,
    ],
    ['a closer split inside a JSON string', '<execute>["</exe', 12],
  ])('A2 regression: %s', (_case, text, cut) => {
    expect(streamed(text, [cut])).toEqual(parse(text));
    expect(everyCharacter(text, 'event')).toEqual(parse(text));
  });

  it('A2 property: any chunking gives the same events as the whole input (event mode)', () => {
    fc.assert(
      fc.property(protocolText, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        expect(streamed(text, cuts)).toEqual(parse(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('A2 property: the parser never throws, in either mode and on any input', () => {
    fc.assert(
      fc.property(fc.oneof(protocolText, fc.string()), fc.array(fc.nat()), (text, cuts) => {
        streamed(text, cuts, 'event');
        streamed(text, cuts, 'token');
      }),
      { numRuns: 1000 },
    );
  });

  it('A2 token mode emits prose and thinking as they arrive', () => {
    const parser = createParser({ mode: 'token' });
    expect(parser.push('Hello wor')).toEqual([{ type: 'respond', content: 'Hello wor' }]);
    expect(parser.push('ld <thi')).toEqual([{ type: 'respond', content: 'ld' }]);
    expect(parser.push('nk>Let me')).toEqual([{ type: 'think', content: 'Let me' }]);
    expect(parser.push(' see</think>')).toEqual([{ type: 'think', content: ' see' }]);
    expect(parser.end()).toEqual([]);
  });

  it('A2 token mode holds back only a possible partial marker', () => {
    const parser = createParser({ mode: 'token' });
    expect(parser.push('a < b and c <exe')).toEqual([{ type: 'respond', content: 'a < b and c' }]);
    expect(parser.push('rcise')).toEqual([{ type: 'respond', content: ' <exercise' }]);
  });

  it('A2 property: token mode yields the same calls, errors and boundaries as event mode', () => {
    const structural = (events: ParsedEvent[]) =>
      events.filter((event) => event.type !== 'respond' && event.type !== 'think');
    fc.assert(
      fc.property(protocolText, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        expect(structural(streamed(text, cuts, 'token'))).toEqual(structural(parse(text)));
      }),
      { numRuns: 1000 },
    );
  });

  it('A2 token deltas concatenate to the event-mode text of each fragment', () => {
    const text = '  Hello there  <think>\n deep thought \n</think>  Bye now. ';
    const deltas = everyCharacter(text, 'token');
    const joined = (type: string) =>
      deltas
        .filter((event) => event.type === type)
        .map((event) => ('content' in event ? event.content : ''))
        .join('');
    expect(joined('think')).toBe('deep thought');
    expect(joined('respond')).toBe('Hello thereBye now.');
    expect(parse(text)).toEqual([
      { type: 'respond', content: 'Hello there' },
      { type: 'think', content: 'deep thought' },
      { type: 'respond', content: 'Bye now.' },
    ]);
  });

  it('A5 token mode drops a lone fence marker next to a block', () => {
    const text = '```xml\n<think>x</think>\n```\n<execute>[]</execute>';
    expect(everyCharacter(text, 'token')).toEqual([{ type: 'think', content: 'x' }, { type: 'execute' }]);
  });

  it('A10 in token mode, an unclosed think shown live is re-read as prose, and its calls still run', () => {
    const text = '<think>plan <execute>[{"name": "a", "args": {}}]</execute>';
    const events = everyCharacter(text, 'token');
    const joined = (type: string) =>
      events.flatMap((event) => (event.type === type && 'content' in event ? [event.content] : [])).join('');
    expect(joined('think')).toBe(text.slice('<think>'.length));
    expect(joined('respond')).toBe('<think>plan');
    expect(events.filter((event) => event.type !== 'think' && event.type !== 'respond')).toEqual(
      parse(text).slice(1),
    );
  });

  it('A7 pushes after the step ended return nothing', () => {
    const parser = createParser();
    expect(parser.push('<execute>[]</execute>')).toEqual([{ type: 'execute' }]);
    expect(parser.push('<think>late</think>')).toEqual([]);
    expect(parser.end()).toEqual([]);
    expect(parser.end()).toEqual([]);
  });

  it('A7 position says where a stop sequence fired: in a JSON string of an execute body or not', () => {
    const at = (text: string) => {
      const parser = createParser();
      parser.push(text);
      return parser.position();
    };
    expect(at('Hello')).toBe('prose');
    expect(at('<think>plan')).toBe('think');
    expect(at('<execute>[{"name": "w", "args": {"text": "a')).toBe('execute-string');
    expect(at('<execute>[{"name": "w", "args": {"text": "a\\')).toBe('execute-string');
    expect(at('<execute>[{"name": "w", "args": {"text": "a"}}]')).toBe('execute');
    expect(at('<execute>[{"name": "w", "args": {"text": "a</execute>"}}]</execute>')).toBe('done');
  });

  it('tracks the position as the parser does, after every chunk of any split', () => {
    fc.assert(
      fc.property(protocolText, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const parser = createParser();
        const tracker = createPositionTracker();
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        let from = 0;
        for (const point of [...points, text.length]) {
          parser.push(text.slice(from, point));
          tracker.push(text.slice(from, point));
          expect(tracker.position()).toBe(parser.position());
          from = point;
        }
      }),
    );
  });

  it('A10 stays linear on thousands of unclosed openers', () => {
    const openers = '<think><execute>"<results>'.repeat(20_000);
    const [event] = parse(openers);
    expect(event).toEqual({ type: 'respond', content: openers });
  });
});
