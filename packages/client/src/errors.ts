import type { FieldProblem } from '@agentstep/protocol';

/** A request the API refused: its HTTP status, the API's error `code`, and each body problem in `fields`. */
export class AgentStepApiError extends Error {
  override readonly name = 'AgentStepApiError';
  readonly status: number;
  readonly code: string;
  readonly fields: FieldProblem[] | undefined;

  constructor(status: number, code: string, message: string, fields?: FieldProblem[]) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** A session's stream kept dropping before its `done`: resume later with `stream(session, { after: lastSeq })`. */
export class StreamDroppedError extends Error {
  override readonly name = 'StreamDroppedError';
  /** The `seq` of the last event received, if any. */
  readonly lastSeq: number | undefined;

  constructor(session: string, dropped: number, lastSeq: number | undefined, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : 'it ended without a done event';
    super(
      `The stream of session ${session} gave up after ${dropped} dropped connection${dropped === 1 ? '' : 's'} in a row ` +
        `(last: ${reason}); resume it with stream('${session}', { after: ${lastSeq ?? 0} }).`,
      { cause },
    );
    this.lastSeq = lastSeq;
  }
}
