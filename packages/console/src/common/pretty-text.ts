import { prettyJson } from './pretty-json.js';

/** Text for people: JSON (a value, or a string holding JSON) pretty-printed, any other string as it is. */
export function prettyText(value: unknown): string {
  return prettyJson(value) ?? String(value);
}
