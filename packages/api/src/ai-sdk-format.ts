import { BATCH_TOOL_NAME, type ErrorBody, type StoredEvent, type WireEventOf } from '@agentstep/protocol';
import type { Frame, StreamFormat } from './stream-format.js';

/** A chunk of the AI SDK's UI message stream protocol (the subset AgentStep's events map to). */
type Chunk = Record<string, unknown> & { type: string };

/** How an AgentStep turn's end reads as the end of an AI SDK message. */
const FINISH_REASONS: Readonly<Record<string, string>> = { done: 'stop', limit: 'length', failed: 'error' };

/**
 * The Vercel AI SDK's UI message stream (`?format=ai-sdk`), so a `useChat` front end can follow an
 * AgentStep session: each turn is one assistant message (`start` … `finish`), each model step a
 * step (`start-step` … `finish-step`), `think` its reasoning, `respond` its text, each call a
 * dynamic tool whose output or error comes from the batch's result, a cancelled turn an `abort`,
 * each approval a `data-approval` part that every change of its status updates in place.
 * Frames keep the event's seq as their id, so a reconnect can resume with `Last-Event-ID`.
 */
export class AiSdkFormat implements StreamFormat {
  readonly headers = { 'x-vercel-ai-ui-message-stream': 'v1' };
  #step: string | undefined;

  event(stored: StoredEvent): Frame[] {
    return this.#chunks(stored).map((chunk) => ({ id: String(stored.seq), data: JSON.stringify(chunk) }));
  }

  metric(metric: WireEventOf<'metric'>): Frame[] {
    const usage = { inputTokens: metric.total.input, outputTokens: metric.total.output };
    return [frame({ type: 'message-metadata', messageMetadata: { usage, ...costOf(metric) } })];
  }

  done(): Frame[] {
    return [{ data: '[DONE]' }];
  }

  error(body: ErrorBody): Frame[] {
    return [frame({ type: 'error', errorText: body.error.message })];
  }

  #chunks({ seq, batch, position, event }: StoredEvent): Chunk[] {
    if (event.type === 'user') return [{ type: 'start' }];
    if (event.type === 'turn_end') return [...this.#endStep(), ...endOfTurn(event)];
    if (batch === undefined) return [];
    // Before the step is touched: an approval can be settled after its step's frames were sent.
    if (event.type === 'approval') return [approvalPart(batch, event)];
    const step = this.#startStep(batch);
    if (event.type === 'think') return [...step, ...textPart('reasoning', `reasoning-${seq}`, event.content)];
    if (event.type === 'respond') return [...step, ...textPart('text', `text-${seq}`, event.content)];
    if (event.type === 'call') return [...step, toolInput(batch, position ?? 0, event.content)];
    if (event.type === 'result') return [...step, ...toolOutputs(batch, event.content), ...this.#endStep()];
    return [];
  }

  #startStep(batch: string): Chunk[] {
    if (this.#step === batch) return [];
    const ended = this.#endStep();
    this.#step = batch;
    return [...ended, { type: 'start-step' }];
  }

  #endStep(): Chunk[] {
    if (this.#step === undefined) return [];
    this.#step = undefined;
    return [{ type: 'finish-step' }];
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

function toolCallId(batch: string, position: number): string {
  return `${batch}#${position}`;
}

/** A call as the model wrote it: `{"name", "args"}`, or an element that is not one (A6). */
function toolInput(batch: string, position: number, content: string): Chunk {
  const call = parsedCall(content);
  return {
    type: 'tool-input-available',
    toolCallId: toolCallId(batch, position),
    toolName: call?.name ?? 'invalid',
    input: call?.args ?? content,
    dynamic: true,
  };
}

function parsedCall(content: string): { name: string; args: unknown } | undefined {
  try {
    const call = JSON.parse(content);
    return typeof call?.name === 'string' ? { name: call.name, args: call.args } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An approval as a data part (the SDK has no part for a decision made outside it): named by the
 * approval's id, so the part of its request is replaced by that of its settlement.
 */
function approvalPart(batch: string, approval: WireEventOf<'approval'>): Chunk {
  const { payload } = approval;
  return {
    type: 'data-approval',
    id: payload.id,
    data: { ...payload, toolCallId: toolCallId(batch, payload.index) },
  };
}

/**
 * Each call's outcome, in call order. A batch-level failure (A6: the `<execute>` body was not a
 * batch) is a tool part of its own whose input failed, so the message keeps going as the turn does.
 */
function toolOutputs(batch: string, content: string): Chunk[] {
  const items = JSON.parse(content) as Array<{ tool: string; status: string; content: unknown }>;
  return items.map((item, position) => {
    const id = toolCallId(batch, position);
    if (item.tool === BATCH_TOOL_NAME) {
      const errorText = String(item.content);
      return {
        type: 'tool-input-error',
        toolCallId: id,
        toolName: BATCH_TOOL_NAME,
        input: null,
        errorText,
        dynamic: true,
      };
    }
    return item.status === 'success'
      ? { type: 'tool-output-available', toolCallId: id, output: item.content, dynamic: true }
      : { type: 'tool-output-error', toolCallId: id, errorText: String(item.content), dynamic: true };
  });
}

function endOfTurn(end: WireEventOf<'turn_end'>): Chunk[] {
  const { status } = end.payload;
  if (status === 'cancelled') return [{ type: 'abort', reason: end.content }];
  const failed: Chunk[] = status === 'failed' ? [{ type: 'error', errorText: end.content }] : [];
  return [...failed, { type: 'finish', finishReason: FINISH_REASONS[status] ?? 'other' }];
}
