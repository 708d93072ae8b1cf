/**
 * Where the task token of a call waiting for approval is kept, server-side only: AwaitApproval
 * puts it, a decision reads it to wake the task. A retried wait has a new token: the latest wins.
 */
export interface ApprovalTokenStore {
  put(session: string, approval: string, token: string): Promise<void>;
  get(session: string, approval: string): Promise<string | undefined>;
}

/** An {@link ApprovalTokenStore} in process memory. */
export class InMemoryApprovalTokenStore implements ApprovalTokenStore {
  readonly #tokens = new Map<string, string>();

  async put(session: string, approval: string, token: string): Promise<void> {
    this.#tokens.set(JSON.stringify([session, approval]), token);
  }

  async get(session: string, approval: string): Promise<string | undefined> {
    return this.#tokens.get(JSON.stringify([session, approval]));
  }
}
