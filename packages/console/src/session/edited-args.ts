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
