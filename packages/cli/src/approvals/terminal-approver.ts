import type { Readable, Writable } from 'node:stream';
import type { ApprovalDecisionBody } from '@agentstep/protocol';
import { ApprovalArgsInvalidError } from '@agentstep/runtime';
import { LineReader } from '../io/line-reader.js';
import type { ApprovalListener, ApprovalQuestion } from './approval-listener.js';
import { argsObject } from './args-object.js';

/** Decides one approval of the run's session; rejects with ApprovalArgsInvalidError for edited args the tool refuses. */
export type DecideApproval = (approval: string, body: ApprovalDecisionBody) => Promise<unknown>;

/**
 * Asks the person at a terminal about each call that waits for approval, one at a time in the
 * order they came: `[y]es / [n]o / [e]dit`, then an optional reason for a denial, or new arguments
 * (asked again while they are not a JSON object the tool accepts). A question whose approval is
 * settled elsewhere (`agentstep approve`, expiry, cancel) is dropped, asked or not.
 */
export class TerminalApprover implements ApprovalListener {
  readonly #lines: LineReader;
  readonly #output: Writable;
  readonly #decide: DecideApproval;
  /** The questions not yet answered, by approval id: aborting one drops it. */
  readonly #open = new Map<string, AbortController>();
  #asking: Promise<void> = Promise.resolve();

  constructor(input: Readable, output: Writable, decide: DecideApproval) {
    this.#lines = new LineReader(input);
    this.#output = output;
    this.#decide = decide;
  }

  onApprovalRequested(approval: ApprovalQuestion): void {
    if (this.#open.has(approval.id)) return;
    const settled = new AbortController();
    this.#open.set(approval.id, settled);
    this.#asking = this.#asking.then(async () => {
      await this.#ask(approval, settled.signal);
      this.#open.delete(approval.id);
    });
  }

  onApprovalSettled(id: string): void {
    this.#open.get(id)?.abort();
  }

  /** Resolves once every question so far was answered or dropped. */
  answered(): Promise<void> {
    return this.#asking;
  }

  /** Asks nothing more and stops reading the input. */
  close(): void {
    for (const settled of this.#open.values()) settled.abort();
    this.#lines.close();
  }

  async #ask(approval: ApprovalQuestion, settled: AbortSignal): Promise<void> {
    const question = `Approve ${approval.tool} ${JSON.stringify(approval.args)}? [y]es / [n]o / [e]dit: `;
    for (;;) {
      const answer = await this.#prompt(question, settled);
      if (answer === undefined) return;
      const choice = answer.trim().toLowerCase();
      if (choice === 'y' || choice === 'yes') {
        await this.#settle(approval.id, { decision: 'approve' });
        return;
      }
      if (choice === 'n' || choice === 'no') return this.#deny(approval, settled);
      if (choice === 'e' || choice === 'edit') return this.#edit(approval, settled);
      this.#say('Answer y, n or e.');
    }
  }

  async #deny(approval: ApprovalQuestion, settled: AbortSignal): Promise<void> {
    const reason = await this.#prompt('Reason (optional, the model reads it): ', settled);
    if (reason === undefined) return;
    const body = reason.trim() === '' ? {} : { reason: reason.trim() };
    await this.#settle(approval.id, { decision: 'deny', ...body });
  }

  async #edit(approval: ApprovalQuestion, settled: AbortSignal): Promise<void> {
    for (;;) {
      const text = await this.#prompt(`New arguments for ${approval.tool} (a JSON object): `, settled);
      if (text === undefined) return;
      const edited = argsObject(text);
      if (!edited.ok) this.#say(`That is ${edited.problem}.`);
      else if (await this.#settle(approval.id, { decision: 'approve', args: edited.args })) return;
    }
  }

  /**
   * Decides; false when the tool refused the edited arguments (said why: ask again). Any other
   * refusal (decided elsewhere first, say) is said in one line and ends the question.
   */
  async #settle(approval: string, body: ApprovalDecisionBody): Promise<boolean> {
    try {
      await this.#decide(approval, body);
    } catch (error) {
      if (error instanceof ApprovalArgsInvalidError) {
        this.#say(error.message);
        return false;
      }
      this.#say(`Not decided: ${error instanceof Error ? `${error.name}: ${error.message}` : error}`);
    }
    return true;
  }

  /** Asks and reads the answer; undefined (ending the prompt's line) when the question was dropped. */
  async #prompt(text: string, settled: AbortSignal): Promise<string | undefined> {
    if (settled.aborted || this.#lines.ended) return undefined;
    this.#output.write(text);
    const answer = await this.#lines.next(settled);
    if (answer === undefined) this.#output.write('\n');
    return answer;
  }

  #say(line: string): void {
    this.#output.write(`${line}\n`);
  }
}
