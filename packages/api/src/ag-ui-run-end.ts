import type { Interrupt } from '@ag-ui/core';
import {
  type ApprovalRecord,
  pendingApprovals,
  type StoredEvent,
  type WireEventOf,
} from '@agentstep/protocol';
import * as z from 'zod';
import type { AgUiEnd } from './ag-ui-format.js';
import { resumePayloadSchema } from './ag-ui-input.js';

/** What an interrupt's answer may carry, as JSON Schema for a form. */
const RESPONSE_SCHEMA = z.toJSONSchema(resumePayloadSchema, { io: 'input' });

/**
 * How an AG-UI run learns it is over, shown every event read (oldest first, from the log's start):
 * once the turn running after seq `after` ends (its `turn_end`, with a failed turn's error), or
 * while that turn's calls wait for a person (an `interrupt` end naming each waiting call).
 */
export function agUiRunEnd(after: number): (events: readonly StoredEvent[]) => AgUiEnd | undefined {
  let turn: StoredEvent[] = [];
  let end: AgUiEnd | undefined;
  return (events) => {
    for (const stored of events) {
      const { event, seq } = stored;
      // Only the running turn's approvals count: those logged after its `user` event.
      if (event.type === 'user') turn = [];
      turn.push(stored);
      if (event.type === 'turn_end' && seq > after) end ??= endOf(event);
    }
    if (end !== undefined) return end;
    const waiting = pendingApprovals(turn);
    if (waiting.length === 0) return undefined;
    return { status: 'interrupt', turn: null, interrupts: waiting.map(interruptOf) };
  };
}

function endOf({ content, payload }: WireEventOf<'turn_end'>): AgUiEnd {
  const { turn, status, error } = payload;
  if (status !== 'failed') return { status, turn };
  return { status, turn, error: { message: content, code: error ?? 'TurnFailed' } };
}

/** A waiting call as an interrupt: named by its approval's id, which is also its tool call's. */
function interruptOf({ id, tool, args, expiresAt }: ApprovalRecord): Interrupt {
  return {
    id,
    reason: 'tool_approval',
    message: `The ${tool} call waits for approval.`,
    toolCallId: id,
    responseSchema: RESPONSE_SCHEMA,
    expiresAt: new Date(expiresAt).toISOString(),
    metadata: { tool, args },
  };
}
