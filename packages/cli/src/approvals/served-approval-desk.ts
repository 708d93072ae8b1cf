import { AgentStepApiError, AgentStepClient } from '@agentstep/client';
import type { ApprovalDecided, ApprovalDecisionBody, ApprovalsList } from '@agentstep/protocol';
import { type ApprovalDesk, ApprovalRefusedError } from './approval-desk.js';

/**
 * The {@link ApprovalDesk} of a running `agentstep serve` (or the deployed API), through
 * `@agentstep/client`: the API records the decision as its tenant's (with `serve --auth dev`, the
 * `token` names the tenant) and wakes the call.
 */
export class ServedApprovalDesk implements ApprovalDesk {
  readonly #url: string;
  readonly #client: AgentStepClient;

  /** @param fetch what the client calls (tests pass the API app's own). @default globalThis.fetch */
  constructor(address: { url: string; token?: string }, fetch?: typeof globalThis.fetch) {
    this.#url = address.url;
    this.#client = new AgentStepClient({
      baseUrl: address.url,
      ...(address.token === undefined ? {} : { token: address.token }),
      ...(fetch === undefined ? {} : { fetch }),
    });
  }

  async pending(session: string): Promise<ApprovalsList> {
    return { approvals: await this.#call(() => this.#client.approvals(session)) };
  }

  decide(session: string, approval: string, body: ApprovalDecisionBody): Promise<ApprovalDecided> {
    return this.#call(() => this.#client.decide(session, approval, body));
  }

  async close(): Promise<void> {}

  /** The API's refusals as one-line errors named by their code; an unreachable server says so. */
  async #call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof AgentStepApiError) {
        const fields = (error.fields ?? []).map(({ path, message }) => `${path}: ${message}`);
        throw new ApprovalRefusedError(
          error.code,
          fields.length === 0 ? error.message : `${error.message} (${fields.join('; ')})`,
        );
      }
      // fetch rejects with a TypeError whose cause says why (ECONNREFUSED, a DNS failure, …).
      if (!(error instanceof TypeError)) throw error;
      const cause = error.cause instanceof Error ? error.cause.message : error.message;
      throw new ApprovalRefusedError(
        'ServeUnreachable',
        `nothing answers at ${this.#url} (${cause}): start \`agentstep serve\` there, or leave out --url and AGENTSTEP_URL to use the local store.`,
      );
    }
  }
}
