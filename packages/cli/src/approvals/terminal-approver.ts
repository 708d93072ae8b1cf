import type { Readable, Writable } from 'node:stream';
import type { ApprovalDecisionBody } from '@agentstep/protocol';
import { ApprovalArgsInvalidError } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';
import { TerminalPrompt } from '../io/terminal-prompt.js';
import type { ApprovalListener, ApprovalQuestion } from './approval-listener.js';
import { argsObject } from './args-object.js';

/** Decides one approval of the run's session; rejects with ApprovalArgsInvalidError for edited args the tool refuses. */
export type DecideApproval = (approval: string, body: ApprovalDecisionBody) => Promise<unknown>;

/**
 * Asks the person at a terminal about each call that waits for approval, one at a time in the
 * order they came: `[y]es / [n]o / [e]dit`, then an optional reason for a denial, or new arguments
 * (asked again while they are not a JSON object the tool accepts). A question whose approval is
 * settled elsewhere (`agentstep approve`, expiry, cancel) is dropped, asked or not. What the run's
 * view prints meanwhile goes above the open question ({@link TerminalApprover.above}).
 */
export class TerminalApprover implements ApprovalListener {
  readonly #prompt: TerminalPrompt;
  readonly #decide: DecideApproval;
  /** The questions not yet answered, by approval id: aborting one drops it. */
  readonly #open = new Map<string, AbortController>();
  #asking: Promise<void> = Promise.resolve();

  constructor(input: Readable, output: Writable, decide: DecideApproval) {
    this.#prompt = new TerminalPrompt(input, output);
    this.#decide = decide;
  }

  /** `io` whose stdout (the terminal the questions are on) prints above the open question. */
  above(io: CliIo): CliIo {
    return { ...io, stdout: (text) => this.#prompt.above(text, io.stdout) };
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
    this.#prompt.close();
  }

  async #ask(approval: ApprovalQuestion, settled: AbortSignal): Promise<void> {
    const question = `Approve ${approval.tool} ${JSON.stringify(approval.args)}? [y]es / [n]o / [e]dit: `;
    for (;;) {
      const answer = await this.#prompt.ask(question, settled);
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
    const reason = await this.#prompt.ask('Reason (optional, the model reads it): ', settled);
    if (reason === undefined) return;
    const body = reason.trim() === '' ? {} : { reason: reason.trim() };
    await this.#settle(approval.id, { decision: 'deny', ...body });
  }

  async #edit(approval: ApprovalQuestion, settled: AbortSignal): Promise<void> {
    for (;;) {
      const text = await this.#prompt.ask(`New arguments for ${approval.tool} (a JSON object): `, settled);
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

  #say(line: string): void {
    this.#prompt.say(line);
  }
}
