import * as z from 'zod';

/** A JSON Schema, as an MCP server sends it. */
export type JsonSchema = Record<string, unknown>;

/**
 * The zod object schema that checks arguments as an MCP tool's JSON Schema (`inputSchema`) says,
 * and whose `z.toJSONSchema` gives that schema back for the system prompt. Unknown arguments are
 * refused unless the schema explicitly allows more properties (`additionalProperties`). A property
 * zod cannot express (`not`, `if`, an external `$ref`) accepts any value, keeps its JSON Schema for
 * the prompt, and leaves the check to the server.
 */
export function jsonSchemaInput(schema: JsonSchema): z.ZodObject {
  const normalized = normalize(schema);
  const converted = convert(normalized);
  if (converted !== undefined)
    return normalized.additionalProperties === undefined ? converted.strict() : converted;
  const fallback = propertyByProperty(normalized);
  // Arguments the schema allows beyond its properties reach the server as they are.
  return normalized.additionalProperties === undefined ? fallback.strict() : fallback.catchall(z.unknown());
}

/** Draft-07 `definitions` as 2020-12 `$defs`, and `type: object` when only implied. */
function normalize(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, definitions, ...rest } = schema;
  const withDefs = definitions === undefined ? rest : { $defs: definitions, ...rest };
  const json = JSON.stringify({ type: 'object', ...withDefs }).replaceAll('"#/definitions/', '"#/$defs/');
  return JSON.parse(json) as JsonSchema;
}

function convert(schema: JsonSchema): z.ZodObject | undefined {
  try {
    const converted = z.fromJSONSchema(schema);
    return converted instanceof z.ZodObject ? converted : undefined;
  } catch {
    return undefined;
  }
}

function propertyByProperty(schema: JsonSchema): z.ZodObject {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const defs = schema.$defs === undefined ? {} : { $defs: schema.$defs };
  const shape = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => {
      const field = isRecord(property) ? propertyInput({ ...defs, ...property }) : z.unknown();
      return [key, required.has(key) ? field : field.optional()];
    }),
  );
  return z.object(shape);
}

function propertyInput(property: JsonSchema): z.ZodType {
  try {
    return z.fromJSONSchema(property);
  } catch {
    const { $defs: _defs, id: _id, ...described } = property;
    return z
      .unknown()
      .refine((value) => value !== undefined, 'required')
      .meta(described);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
