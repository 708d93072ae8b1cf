import {
  type ApprovalDecided,
  type ApprovalDecisionBody,
  type ApprovalsList,
  pendingApproval,
  pendingApprovals,
} from '@agentstep/protocol';
import {
  ApprovalNotFoundError,
  type DecideApprovalDeps,
  decideApproval,
  type EventLog,
} from '@agentstep/runtime';
import { type ApprovalDesk, ApprovalRefusedError } from './approval-desk.js';

/** What the local desk works on: the store's log and approval tokens, the tools, the task tokens. */
export interface LocalApprovalDeskDeps extends DecideApprovalDeps {
  log: EventLog;
  /** Who decides, as the log records it (the OS user). */
  by: string;
  /** Where the log lives, for the refusal of a session it does not hold. */
  dataDir: string;
  /** Lets go of the store. */
  close(): Promise<void>;
}

/**
 * The {@link ApprovalDesk} of the local store (`.agentstep/`), shared with every `run` and `serve`
 * of the folder: a decision wakes the call through the task tokens, in whichever process it waits.
 */
export class LocalApprovalDesk implements ApprovalDesk {
  readonly #deps: LocalApprovalDeskDeps;

  constructor(deps: LocalApprovalDeskDeps) {
    this.#deps = deps;
  }

  async pending(session: string): Promise<ApprovalsList> {
    const events = await this.#deps.log.read(session);
    if (events.length === 0) throw this.#notFound(session);
    return { approvals: pendingApprovals(events).map(pendingApproval) };
  }

  async decide(session: string, approval: string, body: ApprovalDecisionBody): Promise<ApprovalDecided> {
    if ((await this.#deps.log.read(session)).length === 0) throw this.#notFound(session);
    try {
      return await decideApproval({ session, approval, by: this.#deps.by, body }, this.#deps);
    } catch (error) {
      if (!(error instanceof ApprovalNotFoundError)) throw error;
      throw new ApprovalRefusedError(
        error.name,
        `Session ${session} has no approval ${approval}: \`agentstep approvals ${session}\` lists the calls waiting for a decision.`,
      );
    }
  }

  close(): Promise<void> {
    return this.#deps.close();
  }

  #notFound(session: string): ApprovalRefusedError {
    return new ApprovalRefusedError(
      'SessionNotFound',
      `Session ${session} has no events in ${this.#deps.dataDir}.`,
    );
  }
}
