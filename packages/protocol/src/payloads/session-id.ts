import * as z from 'zod';

/** The longest session id: room for a UUID with a prefix, short enough for any key or path. */
export const MAX_SESSION_ID_LENGTH = 128;

const SESSION_ID = /^[A-Za-z0-9._-]+$/;

/** What a session id is, as error messages say it. */
export const SESSION_ID_RULE = `1 to ${MAX_SESSION_ID_LENGTH} letters, digits, ".", "_" or "-", and not "." or ".."`;

/**
 * A session id: safe as a DynamoDB key, an S3 prefix and a folder name (never `.` or `..`, which
 * would name a workspace's parent), the same everywhere a session is named.
 */
export const sessionIdSchema = z
  .string()
  .max(MAX_SESSION_ID_LENGTH)
  .regex(SESSION_ID)
  .refine((id) => id !== '.' && id !== '..')
  .meta({ description: `A session id: ${SESSION_ID_RULE}.` });

/** Whether `id` is a valid session id. */
export function isSessionId(id: string): boolean {
  return sessionIdSchema.safeParse(id).success;
}
