import { AGENTFILE_KEYWORDS, type AgentfileToken } from './agentfile-token.js';

const KEYWORDS: ReadonlySet<string> = new Set(AGENTFILE_KEYWORDS);
const KEYWORD_LOOKING = /^[A-Z][A-Z_]+$/;
const MAX_SHOWN = 30;

/**
 * A token as an error message's "found …" names it: `NUMBER 5`, `IDENTIFIER critic`, `keyword
 * USING`, `end of line`; an upper-case word that is no keyword is an `unknown keyword`, and a
 * lower-case keyword gets a hint that keywords are upper-case.
 */
export function describeToken(token: AgentfileToken): string {
  switch (token.kind) {
    case 'keyword':
      return `keyword ${token.value}`;
    case 'identifier':
      return describeIdentifier(token.value);
    case 'string':
      return `STRING ${shortened(token.text)}`;
    case 'number':
      return `NUMBER ${token.value}`;
    case 'variable':
      return `VARIABLE ${token.text}`;
    case 'path':
      return `PATH ${shortened(token.text)}`;
    case 'arrow':
      return '"->"';
    case 'comma':
      return '","';
    case 'newline':
      return 'end of line';
    case 'end':
      return 'end of file';
    case 'invalid':
      return token.value;
  }
}

function describeIdentifier(name: string): string {
  if (KEYWORD_LOOKING.test(name)) return `unknown keyword ${name}`;
  const upper = name.toUpperCase();
  if (KEYWORDS.has(upper)) return `IDENTIFIER ${name} (keywords are upper-case: ${upper})`;
  return `IDENTIFIER ${name}`;
}

function shortened(text: string): string {
  const firstLine = text.split('\n', 1)[0] ?? '';
  if (firstLine.length <= MAX_SHOWN && firstLine.length === text.length) return text;
  return `${firstLine.slice(0, MAX_SHOWN)}…`;
}
