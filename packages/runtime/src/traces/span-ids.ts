import { createHash } from 'node:crypto';

/** The hex digest of `parts`, joined by line breaks: ids that depend on nothing but the log. */
function digest(parts: readonly (string | number)[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

/** A turn's trace id: 32 hex digits from its session and turn. */
export function traceIdOf(session: string, turn: string): string {
  return digest(['agentstep trace', session, turn]).slice(0, 32);
}

/** A span's id in a turn's trace: 16 hex digits from the session, turn and what the span is of. */
export function spanIdOf(session: string, turn: string, of: string): string {
  return digest(['agentstep span', session, turn, of]).slice(0, 16);
}
