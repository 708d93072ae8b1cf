import {
  BATCH_TOOL_NAME,
  type CallOutcome,
  type ErrorBody,
  type StoredEvent,
  type ToolOutcome,
  type WireEventOf,
} from '@agentstep/protocol';
import type { LiveText } from './live-steps.js';
import { parsedCall } from './parsed-call.js';
import { type Frame, type StreamEnd, type StreamFormat, WAITING } from './stream-format.js';

/** A chunk of the AI SDK's UI message stream protocol (the subset AgentStep's events map to). */
export type Chunk = Record<string, unknown> & { type: string };

/** A text part of the message: an answer (`text`) or thinking (`reasoning`). */
type PartKind = 'text' | 'reasoning';

/** How an AgentStep turn's end reads as the end of an AI SDK message. */
const FINISH_REASONS: Readonly<Record<string, string>> = { done: 'stop', limit: 'length', failed: 'error' };

/** What an {@link AiSdkFormat} shows. */
export interface AiSdkFormatOptions {
  /**
   * Show this one turn as one message whose id is the turn's: `start` carries it as `messageId`,
   * and whatever the log holds after the turn's end is left out (`POST /chat`).
   * @default every turn, each message without an id (`?format=ai-sdk`)
   */
  turn?: string;
  /**
   * What the client already holds of the turn's message, which is then not sent again (`POST
   * /chat` answering approvals: the assistant message it sent back).
   * @default nothing
   */
  held?: HeldParts;
}

/** What a client holds of a message's tool parts. */
export interface HeldParts {
  /** Its own decision of each approval it answered, by approval id: approved or not. */
  decisions: ReadonlyMap<string, boolean>;
  /** The tool calls (`toolCallId`) it holds an outcome of: an output, an error or a denial. */
  outputs: ReadonlySet<string>;
}

/**
 * The Vercel AI SDK's UI message stream (`?format=ai-sdk`, `/chat`), so a `useChat` front end can
 * follow an AgentStep session: each turn is one assistant message (`start` … `finish`), each model step a
 * step (`start-step` … `finish-step`), `think` its reasoning, `respond` its text, each call a
 * dynamic tool whose output or error comes from the batch's result, or, while the batch waits for
 * other calls, from the call's stored outcome (each call's outcome is sent once: the result then
 * says nothing more of it), a cancelled turn an `abort`.
 * Approvals use the SDK's own parts: a request is a `tool-approval-request`, a decision a
 * `tool-approval-response`, and a call that never ran for want of one (denied, expired, its turn
 * cancelled) a `tool-output-denied` (its failure in the batch's result is then not sent again).
 * What the client says it holds ({@link AiSdkFormatOptions.held}) is not sent again: a decision it
 * made itself, an outcome it has.
 * A compaction of the context is a transient `data-compacted` part (its payload as `data`): `useChat`
 * hands it to `onData` and keeps it out of the message, whose parts stay those of the turn.
 * Frames keep the event's seq as their id, so a reconnect can resume with `Last-Event-ID`. A step's
 * text streams as it is written (`reasoning-*` / `text-*` parts, without an id); its stored
 * `think`/`respond` then only end the part, so each piece of text reaches the client once.
 */
export class AiSdkFormat implements StreamFormat {
  readonly headers = { 'x-vercel-ai-ui-message-stream': 'v1' };
  readonly #turn: string | undefined;
  /** The open step: its batch, or, while it streams, `live:` and its step index. */
  #step: string | undefined;
  /** The text part a streaming step has open. */
  #part: { kind: PartKind; id: string } | undefined;
  /** The calls that never ran for want of an approval: their result is their denial. */
  readonly #denied = new Set<string>();
  /** The calls whose outcome the client has: sent on this stream, or held. */
  readonly #answered: Set<string>;
  /** The decisions the client made itself, by approval id. */
  readonly #decisions: ReadonlyMap<string, boolean>;
  /** With a turn: `start` went out; the turn ended. */
  #started = false;
  #ended = false;

  constructor({ turn, held }: AiSdkFormatOptions = {}) {
    this.#turn = turn;
    this.#answered = new Set(held?.outputs);
    this.#decisions = held?.decisions ?? new Map();
  }

  event(stored: StoredEvent, streamed = false): Frame[] {
    const chunks = [...this.#start(), ...this.chunks(stored, streamed)];
    return chunks.map((chunk) => ({ id: String(stored.seq), data: JSON.stringify(chunk) }));
  }

  /** The chunks of one logged event (`streamed`: its step's text went out live). */
  chunks(stored: StoredEvent, streamed = false): Chunk[] {
    if (this.#ended) return [];
    if (this.#turn !== undefined && stored.event.type === 'turn_end') this.#ended = true;
    return this.#chunks(stored, streamed);
  }

  catchUp(held: readonly StoredEvent[]): void {
    for (const stored of held) this.chunks(stored);
  }

  live({ step, index, kind, text }: LiveText): Frame[] {
    if (this.#ended) return [];
    const started = this.#startLiveStep(step);
    const partKind = kind === 'think' ? 'reasoning' : 'text';
    const opened =
      this.#part?.kind === partKind ? [] : this.#openPart(partKind, `${partKind}-${step}.${index}`);
    const delta = { type: `${partKind}-delta`, id: this.#part?.id, delta: text };
    return [...this.#start(), ...started, ...opened, delta].map(frame);
  }

  outcome(outcome: CallOutcome): Frame[] {
    const chunks = this.outcomeChunks(outcome);
    return chunks.length === 0 ? [] : [...this.#start(), ...chunks].map(frame);
  }

  /** A call's output or error while its batch waits for other calls; nothing for a call denied or answered. */
  outcomeChunks({ batch, position, tool, status, content }: CallOutcome): Chunk[] {
    if (this.#ended) return [];
    const output = this.#outputs(batch, [{ tool, status, content } as ToolOutcome], position);
    return output.length === 0 ? [] : [...this.#startStep(batch), ...output];
  }

  metric(metric: WireEventOf<'metric'>): Frame[] {
    if (this.#ended) return [];
    const usage = { inputTokens: metric.total.input, outputTokens: metric.total.output };
    return [
      ...this.#start(),
      { type: 'message-metadata', messageMetadata: { usage, ...costOf(metric) } },
    ].map(frame);
  }

  /** `[DONE]`; for a turn that waits for approval, its message first finishes for `tool-calls`. */
  done(end?: StreamEnd): Frame[] {
    const finish: Chunk[] =
      end?.status === WAITING ? [...this.#endStep(), { type: 'finish', finishReason: 'tool-calls' }] : [];
    return [...[...this.#start(), ...finish].map(frame), { data: '[DONE]' }];
  }

  error(body: ErrorBody): Frame[] {
    return [frame({ type: 'error', errorText: body.error.message })];
  }

  /** With a turn, its message's `start` before anything else is sent. */
  #start(): Chunk[] {
    if (this.#turn === undefined || this.#started) return [];
    this.#started = true;
    return [{ type: 'start', messageId: this.#turn }];
  }

  #chunks({ seq, batch, position, event }: StoredEvent, streamed: boolean): Chunk[] {
    // With a turn, `start` names it and goes out before anything else (see #start).
    if (event.type === 'user') return this.#turn === undefined ? [{ type: 'start' }] : [];
    if (event.type === 'turn_end') return [...this.#endStep(), ...endOfTurn(event)];
    // Between steps (or before a streamed step's own events): it changes no part of the message.
    if (event.type === 'compacted') return [compactedPart(seq, event)];
    if (batch === undefined) return [];
    // Before the step is touched: an approval can be settled after its step's frames were sent.
    if (event.type === 'approval') return this.#approval(batch, event);
    const step = streamed ? this.#adoptStep(batch) : this.#startStep(batch);
    // Its text already went out as live pieces.
    if (streamed && (event.type === 'think' || event.type === 'respond')) return step;
    if (event.type === 'think') return [...step, ...textPart('reasoning', `reasoning-${seq}`, event.content)];
    if (event.type === 'respond') return [...step, ...textPart('text', `text-${seq}`, event.content)];
    if (event.type === 'call') return [...step, toolInput(batch, position ?? 0, event.content)];
    if (event.type === 'result') {
      const items = JSON.parse(event.content) as ToolOutcome[];
      return [...step, ...this.#outputs(batch, items), ...this.#endStep()];
    }
    return [];
  }

  /**
   * An approval as the SDK's parts: its request, then its decision; a call that will not run is
   * denied, and its batch's result then says nothing more of it.
   */
  #approval(batch: string, { content, payload }: WireEventOf<'approval'>): Chunk[] {
    const toolCallId = toolCallIdOf(batch, payload.index);
    const approvalId = payload.id;
    if (payload.status === 'requested') return [{ type: 'tool-approval-request', approvalId, toolCallId }];
    const approved = payload.status === 'approved';
    const reason = payload.reason ?? (approved ? undefined : content);
    // A decision the client made itself is not sent back to it: `ai` 6 knows no such chunk.
    const response: Chunk[] =
      this.#decisions.get(approvalId) === approved
        ? []
        : [{ type: 'tool-approval-response', approvalId, approved, ...(reason ? { reason } : {}) }];
    if (approved) return response;
    this.#denied.add(toolCallId);
    if (this.#answered.has(toolCallId)) return response;
    this.#answered.add(toolCallId);
    return [...response, { type: 'tool-output-denied', toolCallId }];
  }

  /**
   * The output or error of each call of `items` (the batch's result, or one outcome at `from`) whose
   * outcome the client has not had, nor its denial; each is then counted as had.
   */
  #outputs(batch: string, items: readonly ToolOutcome[], from = 0): Chunk[] {
    return items.flatMap((item, index) => {
      const toolCallId = toolCallIdOf(batch, from + index);
      if (this.#denied.has(toolCallId) || this.#answered.has(toolCallId)) return [];
      this.#answered.add(toolCallId);
      return [toolOutput(toolCallId, item)];
    });
  }

  #startStep(batch: string): Chunk[] {
    if (this.#step === batch) return [];
    const ended = this.#endStep();
    this.#step = batch;
    return [...ended, { type: 'start-step' }];
  }

  #startLiveStep(step: number): Chunk[] {
    if (this.#step === `live:${step}`) return [];
    const ended = this.#endStep();
    this.#step = `live:${step}`;
    return [...ended, { type: 'start-step' }];
  }

  /** The streamed step, now logged as `batch`, stays the open step; its open part ends. */
  #adoptStep(batch: string): Chunk[] {
    if (this.#step === batch) return [];
    if (!this.#step?.startsWith('live:')) return this.#startStep(batch);
    this.#step = batch;
    return this.#endPart();
  }

  #openPart(kind: PartKind, id: string): Chunk[] {
    const ended = this.#endPart();
    this.#part = { kind, id };
    return [...ended, { type: `${kind}-start`, id }];
  }

  #endPart(): Chunk[] {
    const part = this.#part;
    this.#part = undefined;
    return part === undefined ? [] : [{ type: `${part.kind}-end`, id: part.id }];
  }

  #endStep(): Chunk[] {
    if (this.#step === undefined) return [];
    this.#step = undefined;
    return [...this.#endPart(), { type: 'finish-step' }];
  }
}

function frame(chunk: Chunk): Frame {
  return { data: JSON.stringify(chunk) };
}

function costOf(metric: WireEventOf<'metric'>): { costUsd?: number } {
  const cost = metric.payload?.total_cost_usd;
  return cost === undefined ? {} : { costUsd: cost };
}

function textPart(kind: 'text' | 'reasoning', id: string, delta: string): Chunk[] {
  return [
    { type: `${kind}-start`, id },
    { type: `${kind}-delta`, id, delta },
    { type: `${kind}-end`, id },
  ];
}

function toolCallIdOf(batch: string, position: number): string {
  return `${batch}#${position}`;
}

/** A call as the model wrote it: `{"name", "args"}`, or an element that is not one (A6). */
function toolInput(batch: string, position: number, content: string): Chunk {
  const call = parsedCall(content);
  return {
    type: 'tool-input-available',
    toolCallId: toolCallIdOf(batch, position),
    toolName: call?.name ?? 'invalid',
    input: call?.args ?? content,
    dynamic: true,
  };
}

/**
 * A call's outcome. A batch-level failure (A6: the `<execute>` body was not a batch) is a tool
 * part of its own whose input failed, so the message keeps going as the turn does.
 */
function toolOutput(toolCallId: string, item: ToolOutcome): Chunk {
  if (item.tool === BATCH_TOOL_NAME) {
    const errorText = String(item.content);
    return {
      type: 'tool-input-error',
      toolCallId,
      toolName: BATCH_TOOL_NAME,
      input: null,
      errorText,
      dynamic: true,
    };
  }
  return item.status === 'success'
    ? { type: 'tool-output-available', toolCallId, output: item.content, dynamic: true }
    : { type: 'tool-output-error', toolCallId, errorText: String(item.content), dynamic: true };
}

/** A `compacted` event as a transient data part: the SDK's readers hand it to `onData`, never to the message. */
function compactedPart(seq: number, { type, payload }: WireEventOf<'compacted'>): Chunk {
  return { type: `data-${type}`, id: `${type}-${seq}`, data: payload, transient: true };
}

function endOfTurn(end: WireEventOf<'turn_end'>): Chunk[] {
  const { status } = end.payload;
  if (status === 'cancelled') return [{ type: 'abort', reason: end.content }];
  const failed: Chunk[] = status === 'failed' ? [{ type: 'error', errorText: end.content }] : [];
  return [...failed, { type: 'finish', finishReason: FINISH_REASONS[status] ?? 'other' }];
}
