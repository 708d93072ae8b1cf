/**
 * A mistake in how the command was called (or in the files it names): printed with a hint, exit
 * code 2, its stack only with `AGENTSTEP_DEBUG=1`.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
