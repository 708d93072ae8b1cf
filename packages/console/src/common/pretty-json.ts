/**
 * `value` as pretty-printed JSON when it is data: any value that is not a string, or a string
 * holding a JSON object or array. `undefined` for any other string: text, to be read as text.
 */
export function prettyJson(value: unknown): string | undefined {
  if (typeof value !== 'string') return JSON.stringify(value, null, 2) ?? String(value);
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null ? JSON.stringify(parsed, null, 2) : undefined;
  } catch {
    return undefined;
  }
}
