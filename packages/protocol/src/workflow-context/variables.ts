import type { RenderContextInput } from './render-input.js';

/**
 * The values `$name` resolves to (E5): the inputs, then each prior completion's fields, oldest
 * first, in one namespace where the latest write wins.
 */
export function renderVariables(input: Pick<RenderContextInput, 'inputs' | 'prior'>): Record<string, string> {
  const writes = [input.inputs ?? {}, ...(input.prior ?? []).map((completion) => completion.fields ?? {})];
  // fromEntries defines own properties, so a name like "__proto__" is a variable like any other.
  return Object.fromEntries(writes.flatMap((values) => Object.entries(values)));
}
