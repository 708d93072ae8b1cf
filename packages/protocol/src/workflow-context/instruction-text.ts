import { interpolate } from './interpolate.js';

/**
 * The text of a `<current-goal>`, `<objective>` or `<task>` before escaping (E9): interpolated
 * when `variables` are given (E4), then, for declared output fields, two newlines and the E5
 * sentence naming them in declared order.
 */
export function instructionText(
  text: string,
  outputs: readonly string[] | undefined,
  variables?: Readonly<Record<string, string>>,
): string {
  const interpolated = variables === undefined ? text : interpolate(text, variables);
  if (outputs === undefined || outputs.length === 0) return interpolated;
  return `${interpolated}\n\nReturn your response as JSON with the following fields: ${outputs.join(', ')}`;
}
