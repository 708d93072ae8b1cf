import type { CallRef } from '../outcomes/outcome-store.js';

/** A call's stable key, `<session>:<batch>:<position>`: the same on every delivery of the call. */
export function idempotencyKey({ session, batch, position }: CallRef): string {
  return `${session}:${batch}:${position}`;
}
