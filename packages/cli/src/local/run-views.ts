import type { EngineEvent, TurnRun } from '@agentstep/local';
import type { StoredEvent } from '@agentstep/protocol';
import type { EventLog } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';

/** How `agentstep run` shows a turn as it runs. */
export interface RunView {
  /** Sees every state machine event, as it happens. */
  onEvent(event: EngineEvent): void;
  /** Shows the rest of the turn once it ended. */
  finish(run: TurnRun): Promise<void>;
}

const MODEL_STATES = new Set(['ModelStep', 'AdvanceTurn']);
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const DIM = (text: string) => `\u001b[2m${text}\u001b[22m`;

/** Reads the session's new events, one read at a time, in order. */
class LogFollower {
  #queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly log: EventLog,
    private readonly session: string,
    private seq: number,
  ) {}

  /** Hands each new event to `show`; calls are serialized so nothing is shown twice. */
  follow(show: (stored: StoredEvent) => void): Promise<void> {
    this.#queue = this.#queue.then(async () => {
      for (const stored of await this.log.read(this.session, { afterSeq: this.seq })) {
        this.seq = stored.seq;
        show(stored);
      }
    });
    return this.#queue;
  }
}

/** A view that shows the session's new events after each model step. */
abstract class FollowingView implements RunView {
  readonly #follower: LogFollower;

  constructor(
    protected readonly io: CliIo,
    log: EventLog,
    session: string,
    afterSeq: number,
  ) {
    this.#follower = new LogFollower(log, session, afterSeq);
  }

  onEvent(event: EngineEvent): void {
    if (event.type === 'StateExited' && MODEL_STATES.has(event.state?.name ?? '')) void this.caughtUp();
  }

  abstract finish(run: TurnRun): Promise<void>;

  /** Shows every event appended so far. */
  protected caughtUp(): Promise<void> {
    return this.#follower.follow((stored) => this.show(stored));
  }

  protected abstract show(stored: StoredEvent): void;
}

/** JSON lines of the spec's events with their `seq`, for programs (`--json`). */
export class JsonRunView extends FollowingView {
  async finish(run: TurnRun): Promise<void> {
    await this.caughtUp();
    if (run.output.status !== 'finished') {
      const error = {
        type: 'error',
        content: run.output.message ?? run.output.status,
        timestamp: this.io.now() / 1000,
      };
      this.io.stdout(`${JSON.stringify(error)}\n`);
    }
  }

  protected show(stored: StoredEvent): void {
    this.io.stdout(`${JSON.stringify({ seq: stored.seq, ...stored.event })}\n`);
  }
}

/** A live view for people: a line per step, thinking dimmed, each call and its outcome, the answer. */
export class LiveRunView extends FollowingView {
  readonly #names = new Map<number, string>();
  #step = 0;
  #batch: string | undefined;
  #spinner: NodeJS.Timeout | undefined;

  override onEvent(event: EngineEvent): void {
    const name = event.state?.name ?? '';
    if (event.type === 'StateEntered' && MODEL_STATES.has(name)) this.#spin();
    if (event.type === 'StateExited' && MODEL_STATES.has(name)) this.#stopSpinning();
    super.onEvent(event);
    if (event.type === 'StateExited' && event.state?.name === 'InvokeTool') {
      const { position, status } = (event.state.output ?? {}) as { position?: number; status?: string };
      this.#say(
        `  ${status === 'success' ? '✓' : '✗'} #${position} ${this.#names.get(position ?? -1) ?? ''} ${status ?? ''}`,
      );
    }
  }

  async finish(run: TurnRun): Promise<void> {
    this.#stopSpinning();
    await this.caughtUp();
    const { output, stats } = run;
    if (output.status !== 'finished')
      this.#say(`\n${output.status === 'limit' ? 'Stopped' : 'Failed'}: ${output.message}`);
    this.#say(
      `\n${stats.modelSteps} model steps, ${stats.toolCalls} tool calls, ${stats.stateTransitions} state transitions in ${stats.executions} execution(s), ${stats.wallMs} ms`,
    );
  }

  protected show(stored: StoredEvent): void {
    const { event } = stored;
    if (stored.batch !== undefined && stored.batch !== this.#batch && event.type !== 'result') {
      this.#batch = stored.batch;
      this.#say(`\n● model step ${++this.#step}`);
    }
    if (event.type === 'think') this.#say(DIM(`  thinking: ${event.content}`));
    else if (event.type === 'respond') this.#say(`  ${event.content.replaceAll('\n', '\n  ')}`);
    else if (event.type === 'call') {
      const { name, args } = safeCall(event.content);
      this.#names.set(stored.position ?? -1, name);
      this.#say(`  → #${stored.position} ${name} ${JSON.stringify(args)}`);
    } else if (event.type === 'result') {
      const { success_count, failure_count } = event.payload;
      this.#say(`  results: ${success_count} succeeded, ${failure_count} failed`);
    }
  }

  #say(line: string): void {
    this.io.stdout(`${line}\n`);
  }

  /** A spinner on stderr while the model works, only when a person watches a terminal. */
  #spin(): void {
    if (!this.io.interactive || this.#spinner !== undefined) return;
    let frame = 0;
    this.#spinner = setInterval(
      () => this.io.stderr(`\r${SPINNER[frame++ % SPINNER.length]} model step…`),
      80,
    );
  }

  #stopSpinning(): void {
    if (this.#spinner === undefined) return;
    clearInterval(this.#spinner);
    this.#spinner = undefined;
    this.io.stderr('\r\u001b[2K');
  }
}

function safeCall(content: string): { name: string; args: unknown } {
  try {
    const { name, args } = JSON.parse(content) as { name?: unknown; args?: unknown };
    return { name: typeof name === 'string' ? name : '?', args };
  } catch {
    return { name: '?', args: content };
  }
}
