import * as z from 'zod';

/**
 * An environment variable holding JSON text, checked against `schema`: text that is not JSON is an
 * issue at the variable's path, as a schema miss is, so the start-up error names the variable.
 */
export function jsonEnv<T extends z.ZodType>(schema: T, fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        context.issues.push({ code: 'custom', input: text, message: `not JSON (${reason})` });
        return z.NEVER;
      }
    })
    .pipe(schema);
}
