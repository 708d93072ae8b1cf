/** A shell command line's words, as written (quotes kept), and its comment. */
export interface ShellWords {
  words: string[];
  /** What follows `#`, trimmed; undefined without a comment. */
  comment: string | undefined;
}

/** Splits a command line into its words, each quoted string one word with its quotes, up to a comment. */
export function splitShellLine(text: string): ShellWords {
  const words: string[] = [];
  for (const match of text.matchAll(/'[^']*'|"(?:\\.|[^"\\])*"|[^\s'"]+/g)) {
    const [word] = match;
    if (word.startsWith('#')) return { words, comment: text.slice(match.index + 1).trim() };
    words.push(word);
  }
  return { words, comment: undefined };
}
