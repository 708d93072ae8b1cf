import { AGENTFILE_KEYWORDS, type AgentfileToken } from './agentfile-token.js';
import { scanString } from './scan-string.js';
import { SourceScanner } from './source-scanner.js';
import type { SourcePosition } from './workflow-spec-problems.js';

const KEYWORDS: ReadonlySet<string> = new Set(AGENTFILE_KEYWORDS);
const WORD_CHARACTER = /[A-Za-z0-9_-]/;
const VARIABLE_NAME = /^[A-Za-z0-9_]+$/;
const DIGITS = /^[0-9]+$/;
const BLANK = /\s/;

/**
 * Splits an Agentfile into tokens, ending with one `end` token. Never throws: a stray character,
 * a malformed number or variable, or an unterminated string becomes an `invalid` token saying what
 * it is. Comments are dropped; each line break outside a string is a `newline` token. The token
 * after `FROM` is a path up to whitespace or `#` (or a string, for a path with spaces).
 */
export function lexAgentfile(source: string): AgentfileToken[] {
  const scanner = new SourceScanner(source.replace(/\r\n/g, '\n'));
  const tokens: AgentfileToken[] = [];
  let lastEnd: SourcePosition | undefined;
  for (;;) {
    skipBlanksAndComments(scanner);
    if (scanner.done || scanner.peek() === '\n') {
      const at = lastEnd?.line === scanner.line ? lastEnd : scanner.position();
      const kind = scanner.done ? 'end' : 'newline';
      tokens.push({ kind, value: '', text: scanner.advance(1), ...at });
      if (kind === 'end') return tokens;
      continue;
    }
    const previous = tokens.at(-1);
    const afterFrom = previous?.kind === 'keyword' && previous.value === 'FROM';
    tokens.push(afterFrom && scanner.peek() !== '"' ? scanPath(scanner) : scanToken(scanner));
    lastEnd = scanner.position();
  }
}

function skipBlanksAndComments(scanner: SourceScanner): void {
  for (;;) {
    scanner.advanceWhile((character) => character !== '\n' && BLANK.test(character));
    if (scanner.peek() !== '#') return;
    scanner.advanceWhile((character) => character !== '\n');
  }
}

function scanToken(scanner: SourceScanner): AgentfileToken {
  const character = scanner.peek();
  const at = scanner.position();
  if (character === '"') return scanString(scanner);
  if (scanner.startsWith('->')) return { kind: 'arrow', value: '->', text: scanner.advance(2), ...at };
  if (character === ',') return { kind: 'comma', value: ',', text: scanner.advance(1), ...at };
  if (character === '$') return scanVariable(scanner);
  if (WORD_CHARACTER.test(character) && character !== '-') return scanWord(scanner);
  const stray = String.fromCodePoint(scanner.text.codePointAt(scanner.index) ?? 0);
  scanner.advance(stray.length);
  return { kind: 'invalid', value: `unexpected character ${JSON.stringify(stray)}`, text: stray, ...at };
}

/** Letters, digits, `_` and `-`, stopping before an arrow (`f1->` is `f1` then `->`). */
function scanWordCharacters(scanner: SourceScanner): string {
  let word = '';
  while (WORD_CHARACTER.test(scanner.peek()) && !scanner.startsWith('->')) word += scanner.advance(1);
  return word;
}

function scanWord(scanner: SourceScanner): AgentfileToken {
  const at = scanner.position();
  const text = scanWordCharacters(scanner);
  if (KEYWORDS.has(text)) return { kind: 'keyword', value: text, text, ...at };
  if (DIGITS.test(text.charAt(0))) {
    if (DIGITS.test(text)) return { kind: 'number', value: text, text, ...at };
    return {
      kind: 'invalid',
      value: `"${text}", which is neither a number (digits only) nor a name (a letter or _ first)`,
      text,
      ...at,
    };
  }
  return { kind: 'identifier', value: text, text, ...at };
}

function scanVariable(scanner: SourceScanner): AgentfileToken {
  const at = scanner.position();
  scanner.advance(1);
  const name = scanWordCharacters(scanner);
  const text = `$${name}`;
  if (VARIABLE_NAME.test(name)) return { kind: 'variable', value: name, text, ...at };
  const problem = name === '' ? 'no name' : 'a "-"';
  return {
    kind: 'invalid',
    value: `"${text}", a variable with ${problem} (expected $ then letters, digits or _)`,
    text,
    ...at,
  };
}

function scanPath(scanner: SourceScanner): AgentfileToken {
  const at = scanner.position();
  const text = scanner.advanceWhile((character) => character !== '#' && !BLANK.test(character));
  return { kind: 'path', value: text, text, ...at };
}
