import { describe, expect, it } from 'vitest';
import type { AgentfileToken } from './agentfile-token.js';
import { lexAgentfile } from './lex-agentfile.js';

type Lexed = [AgentfileToken['kind'], string];

/** Each token but the closing `end`, as [kind, value]. */
function lexed(source: string): Lexed[] {
  return lexAgentfile(source)
    .slice(0, -1)
    .map((token): Lexed => [token.kind, token.value]);
}

describe('lexAgentfile', () => {
  it.each<[string, string, Lexed[]]>([
    [
      'upper-case keywords',
      'NAME GOAL USING',
      [
        ['keyword', 'NAME'],
        ['keyword', 'GOAL'],
        ['keyword', 'USING'],
      ],
    ],
    [
      'a lower-case keyword as a name',
      'goal Goal',
      [
        ['identifier', 'goal'],
        ['identifier', 'Goal'],
      ],
    ],
    [
      'names with digits, _ and -',
      '_a fix-cycle f1',
      [
        ['identifier', '_a'],
        ['identifier', 'fix-cycle'],
        ['identifier', 'f1'],
      ],
    ],
    ['an unknown upper-case word as a name', 'OUTPUTS', [['identifier', 'OUTPUTS']]],
    [
      'an arrow right after a name',
      'x->a,b',
      [
        ['identifier', 'x'],
        ['arrow', '->'],
        ['identifier', 'a'],
        ['comma', ','],
        ['identifier', 'b'],
      ],
    ],
    [
      'a name ending in -',
      'a- b',
      [
        ['identifier', 'a-'],
        ['identifier', 'b'],
      ],
    ],
    [
      'numbers',
      '3 007',
      [
        ['number', '3'],
        ['number', '007'],
      ],
    ],
    [
      'variables',
      '$max $n_2 $3',
      [
        ['variable', 'max'],
        ['variable', 'n_2'],
        ['variable', '3'],
      ],
    ],
    [
      'line breaks',
      'NAME a\n\nRUN',
      [
        ['keyword', 'NAME'],
        ['identifier', 'a'],
        ['newline', ''],
        ['newline', ''],
        ['keyword', 'RUN'],
      ],
    ],
    [
      'CRLF line breaks',
      'NAME a\r\nRUN',
      [
        ['keyword', 'NAME'],
        ['identifier', 'a'],
        ['newline', ''],
        ['keyword', 'RUN'],
      ],
    ],
    [
      'a full-line comment',
      '# NAME a\nRUN',
      [
        ['newline', ''],
        ['keyword', 'RUN'],
      ],
    ],
    [
      'a trailing comment',
      'NAME a # the name\nRUN',
      [
        ['keyword', 'NAME'],
        ['identifier', 'a'],
        ['newline', ''],
        ['keyword', 'RUN'],
      ],
    ],
    [
      'a comment right after a token',
      'NAME a#b',
      [
        ['keyword', 'NAME'],
        ['identifier', 'a'],
      ],
    ],
    ['# inside a string', '"a # b" # c', [['string', 'a # b']]],
    ['# inside a triple-quoted string', '"""\n# not a comment\n"""', [['string', '# not a comment']]],
  ])('reads %s', (_case, source, expected) => {
    expect(lexed(source)).toEqual(expected);
  });

  it.each<[string, string, string]>([
    ['\\n', '"a\\nb"', 'a\nb'],
    ['\\t', '"a\\tb"', 'a\tb'],
    ['\\r', '"a\\rb"', 'a\rb'],
    ['\\\\', '"a\\\\nb"', 'a\\nb'],
    ['\\"', '"say \\"hi\\""', 'say "hi"'],
    ['another backslash, kept as written', '"C:\\path\\x"', 'C:\\path\\x'],
    ['an empty string', '""', ''],
  ])('decodes the escape %s in a one-line string', (_case, source, value) => {
    expect(lexed(source)).toEqual([['string', value]]);
  });

  it.each<[string, string, string]>([
    ['drops one newline after the opening and one before the closing', '"""\nline\n"""', 'line'],
    ['keeps indentation', '"""\n  a\n    b\n  """', '  a\n    b\n  '],
    ['keeps further blank lines', '"""\n\nx\n\n"""', '\nx\n'],
    ['keeps quotes inside', '"""\nsay "hi" and ""twice""\n"""', 'say "hi" and ""twice""'],
    ['keeps backslashes as written', '"""a\\nb"""', 'a\\nb'],
    ['reads one line', '"""one line"""', 'one line'],
    ['ends a content that ends with a quote at the last three quotes', '"""say "hi""""', 'say "hi"'],
    ['reads an empty string', '""""""', ''],
  ])('reads a triple-quoted string: %s', (_case, source, value) => {
    expect(lexed(source)).toEqual([['string', value]]);
  });

  it.each<[string, string, Lexed[]]>([
    [
      'a path after FROM',
      'FROM prompts/critic.md',
      [
        ['keyword', 'FROM'],
        ['path', 'prompts/critic.md'],
      ],
    ],
    [
      'a path with keyword-like parts',
      'FROM ../NAME-1,2.md ->',
      [
        ['keyword', 'FROM'],
        ['path', '../NAME-1,2.md'],
        ['arrow', '->'],
      ],
    ],
    [
      'a path up to a comment',
      'FROM a.md#note',
      [
        ['keyword', 'FROM'],
        ['path', 'a.md'],
      ],
    ],
    [
      'a quoted path',
      'FROM "my prompts/a.md"',
      [
        ['keyword', 'FROM'],
        ['string', 'my prompts/a.md'],
      ],
    ],
    [
      'no path at the end of a line',
      'FROM\nx.md',
      [
        ['keyword', 'FROM'],
        ['newline', ''],
        ['identifier', 'x'],
        ['invalid', 'unexpected character "."'],
        ['identifier', 'md'],
      ],
    ],
  ])('reads %s', (_case, source, expected) => {
    expect(lexed(source)).toEqual(expected);
  });

  it.each<[string, string, Partial<AgentfileToken>]>([
    [
      'a stray character',
      'NAME @',
      { kind: 'invalid', value: 'unexpected character "@"', line: 1, column: 6 },
    ],
    ['a stray emoji', '🙂', { kind: 'invalid', value: 'unexpected character "🙂"', text: '🙂' }],
    ['a lone -', '- x', { kind: 'invalid', value: 'unexpected character "-"' }],
    [
      'a number run into letters',
      '5abc',
      {
        kind: 'invalid',
        value: '"5abc", which is neither a number (digits only) nor a name (a letter or _ first)',
      },
    ],
    [
      'a $ with no name',
      '$ x',
      { kind: 'invalid', value: '"$", a variable with no name (expected $ then letters, digits or _)' },
    ],
    [
      'a variable with a -',
      '$fix-count',
      {
        kind: 'invalid',
        value: '"$fix-count", a variable with a "-" (expected $ then letters, digits or _)',
      },
    ],
    [
      'an unterminated string, at its opening quote',
      'NAME "abc\nRUN',
      {
        kind: 'invalid',
        value: 'an unterminated string "abc (no closing " on its line)',
        line: 1,
        column: 6,
      },
    ],
    [
      'an unterminated string ending in a backslash',
      '"abc\\',
      { kind: 'invalid', value: 'an unterminated string "abc\\ (no closing " on its line)' },
    ],
    [
      'an unterminated triple-quoted string, at its opening',
      'AGENT a """\nYou are\nRUN r',
      {
        kind: 'invalid',
        value: 'an unterminated string """… (no closing """ before the end of the file)',
        line: 1,
        column: 9,
      },
    ],
  ])('reads %s as an invalid token', (_case, source, expected) => {
    expect(lexAgentfile(source).find((token) => token.kind === 'invalid')).toMatchObject(expected);
  });

  it('swallows the rest of the text into an unterminated triple-quoted string', () => {
    expect(lexed('AGENT a """\nRUN r')).toEqual([
      ['keyword', 'AGENT'],
      ['identifier', 'a'],
      ['invalid', 'an unterminated string """… (no closing """ before the end of the file)'],
    ]);
  });

  it('places each token at its 1-based line and column, counting lines inside strings', () => {
    const tokens = lexAgentfile('NAME a\n  GOAL g """\nx\n""" -> f\n');
    expect(tokens.map(({ kind, line, column }) => [kind, line, column])).toEqual([
      ['keyword', 1, 1],
      ['identifier', 1, 6],
      ['newline', 1, 7],
      ['keyword', 2, 3],
      ['identifier', 2, 8],
      ['string', 2, 10],
      ['arrow', 4, 5],
      ['identifier', 4, 8],
      ['newline', 4, 9],
      ['end', 5, 1],
    ]);
  });

  it('places a line end right after the last token, before any comment', () => {
    const [, , newline, , end] = lexAgentfile('RUN r   # why\nNAME');
    expect([newline, end]).toMatchObject([
      { kind: 'newline', line: 1, column: 6 },
      { kind: 'end', line: 2, column: 5 },
    ]);
  });

  it('keeps each token as written', () => {
    expect(lexAgentfile('"a\\"b" $x').map((token) => token.text)).toEqual(['"a\\"b"', '$x', '']);
  });
});
