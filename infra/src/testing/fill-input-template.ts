/** A value at a JSONPath in dot notation with `[n]` indices, as input transformers select it. */
export function valueAt(source: unknown, path: string): unknown {
  const steps = path.replace(/^\$/, '').match(/[^.[\]]+/g) ?? [];
  return steps.reduce<unknown>((value, step) => (value as Record<string, unknown>)[step], source);
}

/**
 * What EventBridge and Pipes make of an input template (their documented behaviour): a bare
 * placeholder becomes the value's JSON, one inside a string the value's raw text, unescaped.
 */
export function fillInputTemplate(template: string, lookup: (name: string) => unknown): unknown {
  return JSON.parse(
    template.replace(/(:?)<([^<>]+)>/g, (_, colon: string, name: string) =>
      colon ? `${colon}${JSON.stringify(lookup(name))}` : String(lookup(name)),
    ),
  );
}
