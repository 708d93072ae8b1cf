import * as z from 'zod';

/**
 * A value checked against the schema that owns its rule, so a mistake fails `cdk synth`, not a
 * turn. Throws `AgentStep <kind> <name> is not valid: …` with every issue.
 */
export function checked<T>(schema: z.core.$ZodType<T>, value: unknown, name: string, kind = 'prop'): T {
  const parsed = z.safeParse(schema, value);
  if (!parsed.success)
    throw new Error(
      `AgentStep ${kind} ${name} is not valid: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || name}: ${issue.message}`).join('; ')}`,
    );
  return parsed.data;
}
