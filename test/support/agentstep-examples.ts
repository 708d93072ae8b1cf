import { shellCommandLines } from './shell-command-lines.js';
import { splitShellLine } from './split-shell-line.js';

/** A variable set for one command: `NAME=value` before it. */
const ASSIGNMENT = /^([A-Z_][A-Z0-9_]*)=(.*)$/s;

/** One `npx agentstep …` command of a document, in one of its forms. */
export interface AgentstepExample {
  /** The document's line (1-based) where it is written. */
  line: number;
  /**
   * The command as written, words one space apart, its comment left out; a form with one of the
   * line's optional `[…]` groups has that group without its brackets and the others left out.
   */
  text: string;
  /** The variables it sets (`NAME=value` before `npx`). */
  env: Record<string, string>;
  /** `agentstep`'s arguments, quotes removed, without `< FILE` and `&`. */
  args: string[];
  /** The file `< FILE` feeds to its standard input, relative to where it runs. */
  stdin: string | undefined;
  /** Whether it runs in the background (`&` at its end). */
  background: boolean;
  /** Its line's comment, without `#`. */
  comment: string | undefined;
}

/**
 * Every `npx agentstep …` command of `markdown`'s shell code blocks. A command with optional
 * `[…]` groups (`events SESSION [--json]`) comes first without them, then once with each group.
 */
export function agentstepExamples(markdown: string): AgentstepExample[] {
  return shellCommandLines(markdown).flatMap(({ line, text }) => {
    const { words, comment } = splitShellLine(text);
    const npx = words.indexOf('npx');
    const prefix = words.slice(0, npx);
    if (npx < 0 || words[npx + 1] !== 'agentstep' || !prefix.every((word) => ASSIGNMENT.test(word)))
      return [];
    return formsOf(words.slice(npx + 2)).map((form) => ({
      line,
      text: [...prefix, 'npx', 'agentstep', ...form].join(' '),
      env: Object.fromEntries(prefix.map((word) => word.match(ASSIGNMENT)?.slice(1).map(unquote) ?? [])),
      ...redirections(form.map(unquote)),
      comment,
    }));
  });
}

/** The words without any optional group, then with each group in its place, brackets removed. */
function formsOf(words: string[]): string[][] {
  const groupOf: number[] = [];
  let groups = 0;
  let inside = false;
  for (const word of words) {
    if (word.startsWith('[')) [groups, inside] = [groups + 1, true];
    groupOf.push(inside ? groups : 0);
    if (word.endsWith(']')) inside = false;
  }
  return Array.from({ length: groups + 1 }, (_, chosen) =>
    words.flatMap((word, index) => {
      if (groupOf[index] === 0) return [word];
      return groupOf[index] === chosen ? [word.replace(/^\[/, '').replace(/\]$/, '')] : [];
    }),
  );
}

/** The arguments, the file `<` names and whether `&` ends them. */
function redirections(words: string[]): Pick<AgentstepExample, 'args' | 'stdin' | 'background'> {
  const background = words.at(-1) === '&';
  const rest = background ? words.slice(0, -1) : words;
  const from = rest.indexOf('<');
  if (from < 0) return { args: rest, stdin: undefined, background };
  return { args: [...rest.slice(0, from), ...rest.slice(from + 2)], stdin: rest[from + 1], background };
}

/** A word without its quotes (and a double-quoted word's escapes). */
function unquote(word: string): string {
  if (/^'.*'$/s.test(word)) return word.slice(1, -1);
  if (/^".*"$/s.test(word)) return word.slice(1, -1).replace(/\\(.)/g, '$1');
  return word;
}
