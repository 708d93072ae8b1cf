import type { EngineEvent, TurnRun } from '@agentstep/local';
import {
  type Compaction,
  MODEL_STEP_STATES,
  type ParsedEvent,
  type ParseMode,
  STATE_NAMES,
  type WireEventOf,
} from '@agentstep/protocol';
import { SessionFollower, type SessionItem, type SessionSource } from '@agentstep/runtime';
import type { ApprovalListener } from '../approvals/approval-listener.js';
import { describeApproval } from '../approvals/describe-approval.js';
import { APPROVAL_SETTLING_STATES } from '../approvals/settling-states.js';
import type { CliIo } from '../io/cli-io.js';
import type { RunView } from './run-view.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** The most characters of a failed call's reason its line shows, as `agentstep events` previews content. */
const REASON_CHARS = 160;
/** The states a call leaves with its outcome. */
const CALL_ENDS: ReadonlySet<string> = new Set([STATE_NAMES.invokeTool, STATE_NAMES.recordToolFailure]);
const indent = (text: string) => text.replaceAll('\n', '\n  ');

/**
 * A live view for people: a header per model step, thinking dimmed and prose as they stream
 * (token mode) or whole once the step is logged (event mode), each call and its outcome, each
 * step's tokens, latency and cost, a compaction of the context (dimmed, before the step it came
 * with), and a summary. Calls that wait for approval say how to decide them, and their decisions
 * show as soon as they are logged; an `ApprovalListener` hears of both.
 */
export class LiveRunView implements RunView {
  readonly #io: CliIo;
  readonly #follower: SessionFollower;
  readonly #mode: ParseMode;
  readonly #session: string;
  readonly #approvals: ApprovalListener | undefined;
  readonly #names = new Map<number, string>();
  /** The tool of each approval requested, by approval id. */
  readonly #approvalTools = new Map<string, string>();
  #step = 0;
  #batch: string | undefined;
  /** The kind of text the current line streams, while a line is open. */
  #open: 'think' | 'respond' | undefined;
  #spinner: NodeJS.Timeout | undefined;

  constructor(io: CliIo, source: SessionSource, mode: ParseMode, approvals?: ApprovalListener) {
    this.#io = io;
    this.#follower = new SessionFollower(source);
    this.#mode = mode;
    this.#session = source.session;
    this.#approvals = approvals;
  }

  onEvent(event: EngineEvent): void {
    const name = event.state?.name ?? '';
    if (event.type === 'StateEntered' && MODEL_STEP_STATES.has(name)) this.#spin();
    if (event.type === 'StateExited' && MODEL_STEP_STATES.has(name)) {
      this.#stopSpinning();
      void this.#caughtUp();
    }
    if (event.type === 'StateExited' && APPROVAL_SETTLING_STATES.has(name)) void this.#caughtUp();
    // A call's outcome: InvokeTool's, or RecordToolFailure's when its tool function failed outright.
    if (event.type === 'StateExited' && CALL_ENDS.has(name)) {
      const { position, status } = (event.state?.output ?? {}) as { position?: number; status?: string };
      // A call that waits for approval leaves without an outcome: its wait is said when it is logged.
      if (status === undefined) return;
      const reason = status === 'failure' ? reasonOf(event.state?.output) : '';
      this.#follower.after(() => {
        const name = this.#names.get(position ?? -1) ?? '';
        this.#say(`  ${status === 'success' ? '✓' : '✗'} #${position} ${name} ${status}${reason}`);
      });
    }
  }

  onModelChunk(step: number, chunk: string): void {
    if (this.#mode !== 'token') return;
    this.#stopSpinning();
    this.#follower.stream(step, chunk, {
      show: (item) => this.#showItem(item),
      stepStarted: () => this.#say(`\n● model step ${++this.#step}`),
      streamed: (events) => {
        for (const event of events) this.#stream(event);
      },
    });
  }

  async finish(run: TurnRun): Promise<void> {
    this.#stopSpinning();
    await this.#caughtUp();
    const { output, stats } = run;
    if (output.status !== 'done')
      this.#say(`\n${output.status === 'limit' ? 'Stopped' : 'Failed'}: ${output.message}`);
    const counted = [
      count(stats.modelSteps, 'model step'),
      count(stats.toolCalls, 'tool call'),
      `${count(stats.stateTransitions, 'state transition')} in ${count(stats.executions, 'execution')}`,
      `${stats.wallMs} ms`,
    ];
    this.#say(`\n${counted.join(', ')}`);
  }

  /** Dimmed, where stdout takes colour (see `CliIo.color`); as it is otherwise. */
  #dim(text: string): string {
    return this.#io.color ? `\u001b[2m${text}\u001b[22m` : text;
  }

  #caughtUp(): Promise<void> {
    return this.#follower.follow((item) => this.#showItem(item));
  }

  #showItem(item: SessionItem): void {
    this.#closeLine();
    if ('seq' in item) this.#show(item);
    else this.#say(this.#dim(`  ${describeMetric(item)}`));
  }

  /** Thinking (dimmed) and prose as they stream; anything else ends the open line. */
  #stream(event: ParsedEvent): void {
    if (event.type !== 'think' && event.type !== 'respond') {
      this.#closeLine();
      return;
    }
    if (this.#open !== event.type) {
      this.#closeLine();
      this.#io.stdout(event.type === 'think' ? this.#dim('  thinking: ') : '  ');
      this.#open = event.type;
    }
    const text = indent(event.content);
    this.#io.stdout(event.type === 'think' ? this.#dim(text) : text);
  }

  #show(stored: Extract<SessionItem, { seq: number }>): void {
    const { event } = stored;
    const streamed = this.#mode === 'token';
    if (!streamed && stored.batch !== undefined && stored.batch !== this.#batch && event.type !== 'result') {
      this.#batch = stored.batch;
      this.#say(`\n● model step ${++this.#step}`);
    }
    if (event.type === 'think' && !streamed) this.#say(this.#dim(`  thinking: ${event.content}`));
    else if (event.type === 'respond' && !streamed) this.#say(`  ${indent(event.content)}`);
    else if (event.type === 'call') {
      const { name, args } = safeCall(event.content);
      this.#names.set(stored.position ?? -1, name);
      this.#say(`  → #${stored.position} ${name} ${JSON.stringify(args)}`);
    } else if (event.type === 'result') {
      const { success_count, failure_count } = event.payload;
      this.#say(`  results: ${success_count} succeeded, ${failure_count} failed`);
    } else if (event.type === 'approval') this.#showApproval(event);
    else if (event.type === 'compacted')
      this.#say(this.#dim(`  context compacted: ${describeCompaction(event.payload)}`));
  }

  /** An approval's line, then its listener hears of it (a question comes after what this read shows). */
  #showApproval(event: WireEventOf<'approval'>): void {
    const { id, index, status, tool, args } = event.payload;
    if (status === 'requested') this.#approvalTools.set(id, tool ?? '');
    const name = this.#approvalTools.get(id) ?? this.#names.get(index) ?? '';
    this.#say(describeApproval(event, { session: this.#session, tool: name }));
    const approvals = this.#approvals;
    if (status !== 'requested') approvals?.onApprovalSettled(id);
    // Asked once this read is shown (the step's metric too), so the question comes last.
    else if (approvals)
      this.#follower.after(() => approvals.onApprovalRequested({ id, tool: name, args: args ?? {} }));
  }

  #closeLine(): void {
    if (this.#open === undefined) return;
    this.#io.stdout('\n');
    this.#open = undefined;
  }

  #say(line: string): void {
    this.#io.stdout(`${line}\n`);
  }

  /** A spinner on stderr while the model works, only when a person watches a terminal. */
  #spin(): void {
    if (!this.#io.interactive || this.#spinner !== undefined) return;
    let frame = 0;
    this.#spinner = setInterval(
      () => this.#io.stderr(`\r${SPINNER[frame++ % SPINNER.length]} model step…`),
      80,
    );
  }

  #stopSpinning(): void {
    if (this.#spinner === undefined) return;
    clearInterval(this.#spinner);
    this.#spinner = undefined;
    this.#io.stderr('\r\u001b[2K');
  }
}

/** One step's usage for people: tokens in (cached) and out, latency, cost; a compaction's said to be that. */
export function describeMetric(metric: WireEventOf<'metric'>): string {
  const usage = usageOf(metric);
  return metric.payload?.purpose === 'compaction' ? `compaction: ${usage}` : usage;
}

function usageOf(metric: WireEventOf<'metric'>): string {
  const count = (tokens: number) => tokens.toLocaleString('en-US');
  const cached = metric.payload?.cache_read ? ` (${count(metric.payload.cache_read)} cached)` : '';
  const cost = metric.payload?.cost_usd === undefined ? '' : ` · $${metric.payload.cost_usd.toFixed(4)}`;
  const total =
    metric.payload?.total_cost_usd === undefined
      ? ''
      : ` (session $${metric.payload.total_cost_usd.toFixed(4)})`;
  const latency = `${metric.payload?.latency_ms ?? 0} ms`;
  if (metric.payload?.usage === 'unknown') return `${latency}, usage unknown (the provider reported none)`;
  if (metric.step.input + metric.step.output === 0) return `${latency}, no token usage reported`;
  return `${count(metric.step.input)} tokens in${cached}, ${count(metric.step.output)} out · ${latency}${cost}${total}`;
}

/**
 * What a compaction did, for people: the request's estimated size without and with it, and what
 * became of the events it covers (`7,950 → 1,830 tokens (events 1–420 summarized by openai:gpt-4o)`).
 */
export function describeCompaction({
  upToSeq,
  strategy,
  model,
  tokensBefore,
  tokensAfter,
}: Compaction): string {
  const count = (tokens: number) => tokens.toLocaleString('en-US');
  const fate = strategy === 'drop' ? 'left out' : `summarized${model === undefined ? '' : ` by ${model}`}`;
  return `${count(tokensBefore)} → ${count(tokensAfter)} tokens (events 1–${upToSeq} ${fate})`;
}

/** `N thing` or `N things`. */
function count(n: number, thing: string): string {
  return `${n} ${thing}${n === 1 ? '' : 's'}`;
}

/**
 * A failed call's reason for its line: `: ` and the first line of its error, at most
 * {@link REASON_CHARS} characters; empty when InvokeTool did not carry the outcome (too large).
 */
function reasonOf(output: unknown): string {
  const content = (output as { outcome?: { content?: unknown } | null } | undefined)?.outcome?.content;
  if (typeof content !== 'string' || content.trim() === '') return '';
  const line = content.trim().split('\n', 1)[0] ?? '';
  return `: ${line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line}`;
}

function safeCall(content: string): { name: string; args: unknown } {
  try {
    const { name, args } = JSON.parse(content) as { name?: unknown; args?: unknown };
    return { name: typeof name === 'string' ? name : '?', args };
  } catch {
    return { name: '?', args: content };
  }
}
