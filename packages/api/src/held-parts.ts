import * as z from 'zod';
import type { HeldParts } from './ai-sdk-format.js';
import type { ChatMessage } from './chat-body.js';

/** A tool part as the SDK keeps it: its call, its state and, once one was asked for, its approval. */
const toolPartSchema = z.object({
  toolCallId: z.string(),
  state: z.string(),
  approval: z.object({ id: z.string(), approved: z.boolean().optional() }).optional(),
});

/** The states of a tool part whose call's outcome the client has. */
const ANSWERED = new Set(['output-available', 'output-error', 'output-denied']);

/**
 * What an assistant message the client sent back holds of its tool parts: the decisions it made
 * (each approval with `approved` set) and the calls whose outcome it has; parts of other shapes
 * hold nothing.
 */
export function heldParts(message: ChatMessage): HeldParts {
  const decisions = new Map<string, boolean>();
  const outputs = new Set<string>();
  for (const part of message.parts) {
    const tool = toolPartSchema.safeParse(part);
    if (!tool.success) continue;
    const { toolCallId, state, approval } = tool.data;
    if (approval?.approved !== undefined) decisions.set(approval.id, approval.approved);
    if (ANSWERED.has(state)) outputs.add(toolCallId);
  }
  return { decisions, outputs };
}
