/**
 * The arguments to approve a call with: `undefined` when the text still says what `original` does,
 * the parsed object when it was edited, an Error saying what is wrong when it is not a JSON object.
 */
export function editedArgs(
  text: string,
  original: Record<string, unknown>,
): Record<string, unknown> | undefined | Error {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return new Error(`The arguments are not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return new Error('The arguments must be a JSON object, such as {"text": "hi"}.');
  return JSON.stringify(parsed) === JSON.stringify(original)
    ? undefined
    : (parsed as Record<string, unknown>);
}

/** One argument an approval's edit changed: its name, and its value before and after (absent: `undefined`). */
export interface ArgChange {
  name: string;
  before: unknown;
  after: unknown;
}

/** The arguments `edited` changed from `original`, by name, in the order they first appear. */
export function argChanges(original: unknown, edited: Record<string, unknown>): ArgChange[] {
  const before =
    typeof original === 'object' && original !== null ? (original as Record<string, unknown>) : {};
  const names = [...new Set([...Object.keys(before), ...Object.keys(edited)])];
  return names
    .filter((name) => JSON.stringify(before[name]) !== JSON.stringify(edited[name]))
    .map((name) => ({ name, before: before[name], after: edited[name] }));
}
