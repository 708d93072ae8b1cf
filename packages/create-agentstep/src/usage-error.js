/** The command was called wrong: its message is the one line printed, and the exit code is 2. */
export class UsageError extends Error {
  /** @override */
  name = 'UsageError';
}
