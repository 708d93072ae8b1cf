import type { EventType, Interrupt, TokenUsage } from '@ag-ui/core';
import {
  approvalId,
  BATCH_TOOL_NAME,
  type ErrorBody,
  type StoredEvent,
  type WireEventOf,
} from '@agentstep/protocol';
import type { LiveText } from './live-steps.js';
import { parsedCall } from './parsed-call.js';
import type { Frame, StreamEnd, StreamFormat } from './stream-format.js';

/**
 * How an AG-UI run ends: a turn's end (`done`, `limit`, `failed` with its `error`, `cancelled`), or
 * `interrupt` while the turn's calls wait for a person (the `interrupts` to answer).
 */
export interface AgUiEnd extends StreamEnd {
  interrupts?: Interrupt[];
  /** A failed turn's message and error name. */
  error?: { message: string; code: string };
}

/** An AG-UI event as sent: its type and fields. */
type AgUiEvent = { type: `${EventType}` } & Record<string, unknown>;

/** The text parts a step streams: its reasoning, then its answer. */
type TextKind = 'think' | 'respond';

/** The model step whose events are being sent. */
interface OpenStep {
  /** Its batch once logged; `live:` and the seq it began after while it streams. */
  key: string;
  /** Names the step and its assistant message: the seq of its first event. */
  name: string;
  /** The text part open in it. */
  part: TextKind | undefined;
}

/**
 * AG-UI 1.0 events for one run (`POST /ag-ui`): the turn of a thread (session) as `RUN_STARTED`,
 * each model step between `STEP_STARTED` and `STEP_FINISHED` (named `step-SEQ` after its first
 * event), its `think` as a reasoning message, its `respond` as an assistant text message
 * (`msg-SEQ`), each call as `TOOL_CALL_START`/`_ARGS`/`_END` in that message (the call's id is its
 * approval's, `BATCH.POSITION`) and each outcome as `TOOL_CALL_RESULT` in call order; then
 * `RUN_FINISHED` (`success`, `cancelled`, or `interrupt` with the waiting calls) or `RUN_ERROR`.
 * A step's text streams as the model writes it (content deltas); its stored event then only closes
 * the part, so each piece of text is sent once. A compaction of the context is a `CUSTOM` event
 * named `compacted` whose `value` is its payload. Nothing is sent once the run's end was.
 */
export class AgUiFormat implements StreamFormat {
  readonly headers = {};
  readonly #run: { threadId: string; runId: string };
  #started = false;
  /** The turn's end was sent: later events (a next turn's) are not this run's. */
  #turnOver = false;
  #over = false;
  #step: OpenStep | undefined;
  readonly #usage = new Map<string, TokenUsage>();

  constructor(run: { threadId: string; runId: string }) {
    this.#run = run;
  }

  /** Whether the run is over: its turn's end, or its last event, was sent. */
  get over(): boolean {
    return this.#over || this.#turnOver;
  }

  event(stored: StoredEvent, streamed = false): Frame[] {
    if (this.over) return [];
    return this.#frames(this.#eventsOf(stored, streamed));
  }

  live({ kind, text, afterSeq }: LiveText): Frame[] {
    if (this.over) return [];
    const step = this.#openStep(`live:${afterSeq}`, afterSeq + 1);
    const id = partId(kind, this.#step as OpenStep);
    const content = kind === 'think' ? 'REASONING_MESSAGE_CONTENT' : 'TEXT_MESSAGE_CONTENT';
    return this.#frames([...step, ...this.#openPart(kind), { type: content, messageId: id, delta: text }]);
  }

  metric(metric: WireEventOf<'metric'>): Frame[] {
    const model = metric.payload?.model ?? 'unknown';
    const usage = this.#usage.get(model) ?? { model, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    const { input, output } = metric.step;
    this.#usage.set(model, {
      model,
      inputTokens: (usage.inputTokens ?? 0) + input,
      outputTokens: (usage.outputTokens ?? 0) + output,
      totalTokens: (usage.totalTokens ?? 0) + input + output,
    });
    return [];
  }

  done(end: AgUiEnd): Frame[] {
    if (this.#over) return [];
    const closed = this.#closeStep();
    this.#over = true;
    return this.#frames([...closed, this.#finish(end)]);
  }

  error(body: ErrorBody): Frame[] {
    if (this.#over) return [];
    this.#over = true;
    return this.#frames([{ type: 'RUN_ERROR', message: body.error.message, code: body.error.code }]);
  }

  /** The frames of `events`, after `RUN_STARTED` if none was sent yet. */
  #frames(events: AgUiEvent[]): Frame[] {
    const started: AgUiEvent[] = this.#started ? [] : [{ type: 'RUN_STARTED', ...this.#run }];
    this.#started = true;
    return [...started, ...events].map((event) => ({ data: JSON.stringify(event) }));
  }

  #eventsOf({ seq, batch, position, event }: StoredEvent, streamed: boolean): AgUiEvent[] {
    if (event.type === 'turn_end') {
      this.#turnOver = true;
      return this.#closeStep();
    }
    // The context was compacted: AG-UI's custom event, which clients without a handler for it pass over.
    if (event.type === 'compacted') return [{ type: 'CUSTOM', name: event.type, value: event.payload }];
    if (batch === undefined || event.type === 'approval') return [];
    const step = this.#enterStep(batch, seq, streamed);
    if (event.type === 'think' || event.type === 'respond') return [...step, ...this.#text(event, streamed)];
    if (event.type === 'call')
      return [...step, ...this.#closePart(), ...this.#call(batch, position ?? 0, event)];
    if (event.type === 'result') return [...step, ...this.#results(batch, event), ...this.#closeStep()];
    return step;
  }

  /** Makes step `batch` the open one; a streamed step, now logged as `batch`, stays open. */
  #enterStep(batch: string, seq: number, streamed: boolean): AgUiEvent[] {
    if (streamed && this.#step?.key.startsWith('live:')) this.#step.key = batch;
    return this.#openStep(batch, seq);
  }

  #text(event: WireEventOf<'think' | 'respond'>, streamed: boolean): AgUiEvent[] {
    // Its text already went out as it streamed: the stored event only closes the part.
    if (streamed) return this.#closePart();
    const messageId = partId(event.type, this.#step as OpenStep);
    const type = event.type === 'think' ? 'REASONING_MESSAGE_CONTENT' : 'TEXT_MESSAGE_CONTENT';
    const text: AgUiEvent[] = event.content === '' ? [] : [{ type, messageId, delta: event.content }];
    return [...this.#openPart(event.type), ...text, ...this.#closePart()];
  }

  /** Opens the step `key` (first closing the one open), named after `seq`, its first event. */
  #openStep(key: string, seq: number): AgUiEvent[] {
    if (this.#step?.key === key) return [];
    const closed = this.#closeStep();
    this.#step = { key, name: `step-${seq}`, part: undefined };
    return [...closed, { type: 'STEP_STARTED', stepName: this.#step.name }];
  }

  #closeStep(): AgUiEvent[] {
    const step = this.#step;
    if (step === undefined) return [];
    const closed = this.#closePart();
    this.#step = undefined;
    return [...closed, { type: 'STEP_FINISHED', stepName: step.name }];
  }

  #openPart(kind: TextKind): AgUiEvent[] {
    const step = this.#step as OpenStep;
    if (step.part === kind) return [];
    const closed = this.#closePart();
    step.part = kind;
    const messageId = partId(kind, step);
    if (kind === 'respond') return [...closed, { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' }];
    return [
      ...closed,
      { type: 'REASONING_START', messageId },
      { type: 'REASONING_MESSAGE_START', messageId, role: 'reasoning' },
    ];
  }

  #closePart(): AgUiEvent[] {
    const step = this.#step;
    const kind = step?.part;
    if (step === undefined || kind === undefined) return [];
    step.part = undefined;
    const messageId = partId(kind, step);
    if (kind === 'respond') return [{ type: 'TEXT_MESSAGE_END', messageId }];
    return [
      { type: 'REASONING_MESSAGE_END', messageId },
      { type: 'REASONING_END', messageId },
    ];
  }

  /** A call as the model wrote it: `{"name", "args"}`; an element that is not one keeps its text as args. */
  #call(batch: string, position: number, event: WireEventOf<'call'>): AgUiEvent[] {
    const call = parsedCall(event.content);
    return this.#callEvents(
      approvalId(batch, position),
      call?.name ?? 'invalid',
      call?.args ?? event.content,
    );
  }

  #callEvents(toolCallId: string, toolCallName: string, args: unknown): AgUiEvent[] {
    const step = this.#step as OpenStep;
    const delta = typeof args === 'string' ? args : JSON.stringify(args ?? {});
    return [
      { type: 'TOOL_CALL_START', toolCallId, toolCallName, parentMessageId: partId('respond', step) },
      { type: 'TOOL_CALL_ARGS', toolCallId, delta },
      { type: 'TOOL_CALL_END', toolCallId },
    ];
  }

  /**
   * Each call's outcome, in call order, as the tool's message. A batch-level failure (A6: the
   * `<execute>` body was no batch) has no call event: its call is started first, without arguments.
   */
  #results(batch: string, event: WireEventOf<'result'>): AgUiEvent[] {
    const items = JSON.parse(event.content) as Array<{ tool: string; status: string; content: unknown }>;
    return items.flatMap((item, position) => {
      const toolCallId = approvalId(batch, position);
      const content = typeof item.content === 'string' ? item.content : JSON.stringify(item.content);
      const started = item.tool === BATCH_TOOL_NAME ? this.#callEvents(toolCallId, item.tool, {}) : [];
      return [
        ...started,
        { type: 'TOOL_CALL_RESULT', messageId: `result-${toolCallId}`, toolCallId, content, role: 'tool' },
      ];
    });
  }

  #finish(end: AgUiEnd): AgUiEvent {
    const usage = this.#usage.size === 0 ? {} : { usage: [...this.#usage.values()] };
    if (end.error !== undefined) return { type: 'RUN_ERROR', ...end.error, ...usage };
    const outcome =
      end.interrupts !== undefined
        ? { type: 'interrupt', interrupts: end.interrupts }
        : { type: end.status === 'cancelled' ? 'cancelled' : 'success' };
    const result = end.turn === null ? {} : { result: { turn: end.turn, status: end.status } };
    return { type: 'RUN_FINISHED', ...this.#run, ...result, outcome, ...usage };
  }
}

/** The id of a step's reasoning (`reasoning-SEQ`) or answer (`msg-SEQ`, which also holds its calls). */
function partId(kind: TextKind, step: OpenStep): string {
  const seq = step.name.slice('step-'.length);
  return kind === 'think' ? `reasoning-${seq}` : `msg-${seq}`;
}
