/**
 * The text a structured output field interpolates as (decision E5): a JSON string as its text,
 * any other JSON value as its compact JSON text (a value with no JSON text, `undefined`, as '').
 */
export function fieldText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}
