/** The Agentfile's keywords: upper-case and case-sensitive (`goal` is a name). */
export const AGENTFILE_KEYWORDS = [
  'NAME',
  'INPUT',
  'DEFAULT',
  'AGENT',
  'GOAL',
  'CONVERGE',
  'RUN',
  'LOOP',
  'USING',
  'WITHIN',
  'FROM',
  'REQUIRES',
  'SUPERVISED',
  'HUMAN',
  'UNSUPERVISED',
] as const;

/** One of {@link AGENTFILE_KEYWORDS}. */
export type AgentfileKeyword = (typeof AGENTFILE_KEYWORDS)[number];

/** The keywords that start a statement, and so end the statement before them. */
export const STATEMENT_KEYWORDS: readonly AgentfileKeyword[] = [
  'NAME',
  'INPUT',
  'AGENT',
  'GOAL',
  'CONVERGE',
  'RUN',
  'LOOP',
  'SUPERVISED',
];

/**
 * A lexical unit. `value` is the keyword, the name, the decoded string, the digits, the variable
 * name without `$`, the path, or for `invalid` what is wrong; `text` is the token as written.
 * `line` and `column` (1-based) are where it starts; for `newline` and `end`, where the line's last
 * token ends.
 */
export interface AgentfileToken {
  kind:
    | 'keyword'
    | 'identifier'
    | 'string'
    | 'number'
    | 'variable'
    | 'path'
    | 'arrow'
    | 'comma'
    | 'newline'
    | 'invalid'
    | 'end';
  value: string;
  text: string;
  line: number;
  column: number;
}
