import * as z from 'zod';

/** A tool as the model sees it: a name, what it does, and its arguments' JSON Schema. */
export const toolDescriptionSchema = z.object({
  name: z
    .string()
    .regex(
      /^[A-Za-z_][\w.-]{0,63}$/,
      'a tool name is 1–64 letters, digits, "_", "." or "-", starting with a letter or "_"',
    ),
  description: z.string().min(1),
  parameters: z.record(z.string(), z.unknown()),
});

/** A tool as the model sees it. */
export type ToolDescription = z.infer<typeof toolDescriptionSchema>;

/**
 * Describes a tool whose arguments are a zod object schema: its JSON Schema comes from
 * `z.toJSONSchema`, so the prompt always matches what validation accepts.
 */
export function describeTool(tool: { name: string; description: string; input: z.ZodType }): ToolDescription {
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(tool.input, { io: 'input' });
  return toolDescriptionSchema.parse({ name: tool.name, description: tool.description, parameters });
}
