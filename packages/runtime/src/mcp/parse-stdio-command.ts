/** A local MCP server's command line, split into the program and its arguments. */
export interface StdioCommand {
  command: string;
  args: string[];
}

/**
 * Splits `stdio:COMMAND ARGS…` like a shell splits words, without running a shell: spaces separate
 * words, and single or double quotes keep spaces (and the other kind of quote) inside one word.
 * Nothing is expanded. Throws when a quote is left open or no command is given.
 */
export function parseStdioCommand(url: string): StdioCommand {
  const line = url.replace(/^stdio:/, '');
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote) throw new Error(`"${url}" leaves a ${quote} quote open: close it.`);
  if (word !== undefined) words.push(word);
  const [command, ...args] = words;
  if (!command) throw new Error(`"${url}" names no command: write stdio:COMMAND ARGS…`);
  return { command, args };
}
