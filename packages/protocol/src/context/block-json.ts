/**
 * JSON for a rebuilt `<execute>` or `<results>` block: 2-space indented, with every `</` written
 * as `<\/` (D2). `<` only occurs inside strings in JSON text, so the result is still valid JSON and
 * can never close a block early.
 */
export function blockJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replaceAll('</', '<\\/');
}
