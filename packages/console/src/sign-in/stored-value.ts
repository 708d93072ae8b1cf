import * as z from 'zod/mini';

/** The JSON value kept under `key`, if it parses and matches `schema`; `undefined` otherwise. */
export function storedValue<T>(storage: Storage, key: string, schema: z.ZodMiniType<T>): T | undefined {
  let stored: unknown;
  try {
    stored = JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    return undefined;
  }
  const parsed = z.safeParse(schema, stored);
  return parsed.success ? parsed.data : undefined;
}
