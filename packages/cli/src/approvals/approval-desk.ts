import type { ApprovalDecided, ApprovalDecisionBody, ApprovalsList } from '@agentstep/protocol';

/**
 * Where `agentstep approvals` and `approve` find a session's calls waiting for a person: the
 * local store, or a running `agentstep serve`. Both refuse the same way: an error named after the
 * API's code (`SessionNotFound`, `ApprovalNotFound`, `AlreadyDecided`, `ValidationError`) whose
 * message is one line saying what to do.
 */
export interface ApprovalDesk {
  /** The session's calls waiting for a decision, oldest first, in the API's shape. */
  pending(session: string): Promise<ApprovalsList>;
  /** Decides one approval; its call's task wakes wherever it waits. */
  decide(session: string, approval: string, body: ApprovalDecisionBody): Promise<ApprovalDecided>;
  /** Lets go of the store or connection. */
  close(): Promise<void>;
}

/** A refusal of an {@link ApprovalDesk}: named after the API's error code, in one line. */
export class ApprovalRefusedError extends Error {
  constructor(code: string, message: string) {
    super(message);
    this.name = code;
  }
}
