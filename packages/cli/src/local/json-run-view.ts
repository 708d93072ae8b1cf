import type { EngineEvent, TurnRun } from '@agentstep/local';
import { loggedEvent, MODEL_STEP_STATES, type ParseMode } from '@agentstep/protocol';
import { SessionFollower, type SessionItem, type SessionSource } from '@agentstep/runtime';
import { APPROVAL_SETTLING_STATES } from '../approvals/settling-states.js';
import type { CliIo } from '../io/cli-io.js';
import type { RunView } from './run-view.js';

/**
 * JSON lines for programs (`--json`): the spec's events with their `seq`, each model step's
 * `metric`, and an `error` when the turn did not finish. In token mode, thinking and prose come as
 * they stream (no seq), and the log's whole `think` and `respond` events are left out. Approval
 * decisions come out as soon as the call they woke goes on.
 */
export class JsonRunView implements RunView {
  readonly #io: CliIo;
  readonly #follower: SessionFollower;
  readonly #mode: ParseMode;

  constructor(io: CliIo, source: SessionSource, mode: ParseMode) {
    this.#io = io;
    this.#follower = new SessionFollower(source);
    this.#mode = mode;
  }

  onEvent(event: EngineEvent): void {
    if (event.type !== 'StateExited') return;
    const name = event.state?.name ?? '';
    if (MODEL_STEP_STATES.has(name) || APPROVAL_SETTLING_STATES.has(name)) void this.#caughtUp();
  }

  onModelChunk(step: number, chunk: string): void {
    if (this.#mode !== 'token') return;
    const timestamp = this.#io.now() / 1000;
    this.#follower.stream(step, chunk, {
      show: (item) => this.#show(item),
      streamed: (events) => {
        for (const event of events)
          if (event.type === 'think' || event.type === 'respond') this.#line({ ...event, timestamp });
      },
    });
  }

  async finish(run: TurnRun): Promise<void> {
    await this.#caughtUp();
    if (run.output.status === 'done') return;
    const content = run.output.message;
    this.#line({ type: 'error', content, timestamp: this.#io.now() / 1000 });
  }

  #caughtUp(): Promise<void> {
    return this.#follower.follow((item) => this.#show(item));
  }

  #show(item: SessionItem): void {
    if (!('seq' in item)) this.#line(item);
    else if (this.#mode === 'event' || !['think', 'respond'].includes(item.event.type))
      this.#line(loggedEvent(item));
  }

  #line(value: object): void {
    this.#io.stdout(`${JSON.stringify(value)}\n`);
  }
}
