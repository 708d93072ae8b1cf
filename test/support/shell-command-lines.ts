/** A shell code block of a Markdown document: its body, after the fence line. */
const SHELL_BLOCK = /^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm;

/** One command line of a Markdown document's shell code blocks. */
export interface ShellCommandLine {
  /** The document's line (1-based) where the command starts. */
  line: number;
  /** The command as written, its continuation lines (a `\` at the end of a line) joined with a space. */
  text: string;
}

/** Every non-empty line of `markdown`'s `sh`, `bash` and `shell` code blocks, continuations joined. */
export function shellCommandLines(markdown: string): ShellCommandLine[] {
  return [...markdown.matchAll(SHELL_BLOCK)].flatMap((block) => {
    const bodyLine = markdown.slice(0, block.index).split('\n').length + 1;
    const commands: ShellCommandLine[] = [];
    let pending: ShellCommandLine | undefined;
    for (const [offset, row] of (block[1] ?? '').split('\n').entries()) {
      const command = pending ?? { line: bodyLine + offset, text: '' };
      const continued = row.endsWith('\\');
      command.text += continued ? `${row.slice(0, -1)} ` : row;
      pending = continued ? command : undefined;
      if (!continued && command.text.trim() !== '') commands.push({ ...command, text: command.text.trim() });
    }
    return commands;
  });
}
