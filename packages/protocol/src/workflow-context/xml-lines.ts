/** Elements one after another, each ending its own line, with no blank line between them. */
export function xmlLines(elements: readonly string[]): string {
  return elements.map((element) => `${element}\n`).join('');
}
