/**
 * Replaces `$name` with its value per decision E4: one left-to-right pass in which the longest
 * known name after each `$` wins; values are never scanned again, and a `$` that starts no known
 * name stays as written (`{x}` and `{{x}}` are not variables).
 */
export function interpolate(text: string, variables: Readonly<Record<string, string>>): string {
  const names = Object.keys(variables)
    .filter((name) => name !== '')
    .sort((a, b) => b.length - a.length);
  if (names.length === 0) return text;
  const parts: string[] = [];
  let copied = 0;
  for (let dollar = text.indexOf('$'); dollar !== -1; dollar = text.indexOf('$', copied)) {
    const name = names.find((candidate) => text.startsWith(candidate, dollar + 1));
    if (name === undefined) {
      parts.push(text.slice(copied, dollar + 1));
    } else {
      parts.push(text.slice(copied, dollar), variables[name] ?? '');
    }
    copied = dollar + 1 + (name?.length ?? 0);
  }
  parts.push(text.slice(copied));
  return parts.join('');
}
