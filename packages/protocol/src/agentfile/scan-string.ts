import type { AgentfileToken } from './agentfile-token.js';
import type { SourceScanner } from './source-scanner.js';

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"' };
const TRIPLE = '"""';

/**
 * Reads the string that starts at the scanner: `"…"` on one line with the escapes `\n \t \r \\ \"`
 * (any other backslash kept as written), or `"""…"""` across lines with no escapes, one newline
 * after the opening and one before the closing dropped. Unterminated → an `invalid` token at the
 * opening quote (a one-line string ends at its line, a triple-quoted one at the end of the text).
 */
export function scanString(scanner: SourceScanner): AgentfileToken {
  return scanner.startsWith(TRIPLE) ? scanTripleQuoted(scanner) : scanQuoted(scanner);
}

function scanQuoted(scanner: SourceScanner): AgentfileToken {
  const { line, column } = scanner.position();
  const start = scanner.index;
  scanner.advance(1);
  let value = '';
  for (;;) {
    const character = scanner.peek();
    if (character === '"') {
      scanner.advance(1);
      return { kind: 'string', value, text: scanner.text.slice(start, scanner.index), line, column };
    }
    if (character === '' || character === '\n') {
      const text = scanner.text.slice(start, scanner.index);
      return {
        kind: 'invalid',
        value: `an unterminated string ${excerpt(text)} (no closing " on its line)`,
        text,
        line,
        column,
      };
    }
    value += character === '\\' ? readEscape(scanner) : scanner.advance(1);
  }
}

function readEscape(scanner: SourceScanner): string {
  const escaped = ESCAPES[scanner.peek(1)];
  if (escaped === undefined) return scanner.advance(1);
  scanner.advance(2);
  return escaped;
}

function scanTripleQuoted(scanner: SourceScanner): AgentfileToken {
  const { line, column } = scanner.position();
  const start = scanner.index;
  const contentStart = start + TRIPLE.length;
  let close = scanner.text.indexOf(TRIPLE, contentStart);
  if (close < 0) {
    const text = scanner.advance(scanner.text.length - start);
    return {
      kind: 'invalid',
      value: `an unterminated string ${excerpt(text)} (no closing """ before the end of the file)`,
      text,
      line,
      column,
    };
  }
  // A run of more than three quotes closes with its last three: the others end the content.
  while (scanner.text.charAt(close + TRIPLE.length) === '"') close += 1;
  const value = dropEdgeNewlines(scanner.text.slice(contentStart, close));
  const text = scanner.advance(close + TRIPLE.length - start);
  return { kind: 'string', value, text, line, column };
}

function dropEdgeNewlines(content: string): string {
  const opened = content.startsWith('\n') ? content.slice(1) : content;
  return opened.endsWith('\n') ? opened.slice(0, -1) : opened;
}

/** The first line of a token, shortened for a message. */
function excerpt(text: string): string {
  const firstLine = text.split('\n', 1)[0] ?? '';
  return firstLine.length > 30 || firstLine.length < text.length ? `${firstLine.slice(0, 30)}…` : firstLine;
}
