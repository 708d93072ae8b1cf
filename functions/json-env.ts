import * as z from 'zod';

/** An environment variable holding JSON text, checked against `schema`. */
export function jsonEnv<T extends z.ZodType>(schema: T, fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((text) => JSON.parse(text) as unknown)
    .pipe(schema);
}
