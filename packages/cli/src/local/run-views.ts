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

/** JSON lines of the spec's events with their `seq`, for programs (`--json`). */
export class JsonRunView implements RunView {
  readonly #follower: LogFollower;

  constructor(
    private readonly io: CliIo,
    log: EventLog,
    session: string,
    afterSeq: number,
  ) {
    this.#follower = new LogFollower(log, session, afterSeq);
  }

  onEvent(event: EngineEvent): void {
    if (event.type === 'StateExited' && MODEL_STATES.has(event.state?.name ?? ''))
      void this.#follower.follow(this.#print);
  }

  async finish(run: TurnRun): Promise<void> {
    await this.#follower.follow(this.#print);
    if (run.output.status !== 'finished') {
      this.io.stdout(
        `${JSON.stringify({ type: 'error', content: run.output.message ?? run.output.status, timestamp: this.io.now() / 1000 })}\n`,
      );
    }
  }

  readonly #print = (stored: StoredEvent) =>
    this.io.stdout(`${JSON.stringify({ seq: stored.seq, ...stored.event })}\n`);
}

/** A live view for people: a line per step, thinking dimmed, each call and its outcome, the answer. */
export class LiveRunView implements RunView {
  readonly #follower: LogFollower;
  readonly #names = new Map<number, string>();
  #step = 0;
  #batch: string | undefined;

  constructor(
    private readonly io: CliIo,
    log: EventLog,
    session: string,
    afterSeq: number,
  ) {
    this.#follower = new LogFollower(log, session, afterSeq);
  }

  onEvent(event: EngineEvent): void {
    const name = event.state?.name ?? '';
    if (event.type === 'StateExited' && MODEL_STATES.has(name)) void this.#follower.follow(this.#show);
    if (event.type === 'StateExited' && name === 'InvokeTool') {
      const { position, status } = (event.state?.output ?? {}) as { position?: number; status?: string };
      this.#say(
        `  ${status === 'success' ? '✓' : '✗'} #${position} ${this.#names.get(position ?? -1) ?? ''} ${status ?? ''}`,
      );
    }
  }

  async finish(run: TurnRun): Promise<void> {
    await this.#follower.follow(this.#show);
    const { output, stats } = run;
    if (output.status !== 'finished')
      this.#say(`\n${output.status === 'limit' ? 'Stopped' : 'Failed'}: ${output.message}`);
    this.#say(
      `\n${stats.modelSteps} model steps, ${stats.toolCalls} tool calls, ${stats.stateTransitions} state transitions in ${stats.executions} execution(s), ${stats.wallMs} ms`,
    );
  }

  readonly #show = (stored: StoredEvent) => {
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
  };

  #say(line: string): void {
    this.io.stdout(`${line}\n`);
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
