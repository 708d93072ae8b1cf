type Schema = Record<string, unknown>;

/**
 * Plausible arguments for a tool, derived from its JSON Schema, for the system prompt's examples:
 * the required properties (or the first one), each with its example, default, first enum value or
 * a placeholder of its type.
 */
export function exampleArgs(parameters: Schema): Record<string, unknown> {
  const properties = asSchema(parameters.properties) ?? {};
  const required = Array.isArray(parameters.required) ? parameters.required.map(String) : [];
  const names = required.length > 0 ? required : Object.keys(properties).slice(0, 1);
  return Object.fromEntries(names.map((name) => [name, exampleValue(asSchema(properties[name]) ?? {})]));
}

function exampleValue(schema: Schema): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const option = [schema.anyOf, schema.oneOf].find(Array.isArray)?.[0];
  if (option !== undefined) return exampleValue(asSchema(option) ?? {});
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return exampleArgs(schema);
  return '…';
}

function asSchema(value: unknown): Schema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : undefined;
}
