/** The JSON values of the lines a command printed (`--json` output), blank lines skipped. */
export function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}
