/** Arguments a person typed: the JSON object, or why the text is not one. */
export type ArgsObject = { ok: true; args: Record<string, unknown> } | { ok: false; problem: string };

/** Reads a call's arguments from JSON text: an object, never an array, null or a scalar. */
export function argsObject(text: string): ArgsObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not JSON (${error instanceof Error ? error.message : error})` };
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return { ok: true, args: value as Record<string, unknown> };
  const received = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
  return { ok: false, problem: `not a JSON object (received ${received})` };
}
