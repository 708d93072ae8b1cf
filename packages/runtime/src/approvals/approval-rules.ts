import { approvalId, DEFAULT_APPROVAL_TIMEOUT_SECONDS, storedCall } from '@agentstep/protocol';
import type { NewEvent } from '../event-log/event-log.js';
import type { Tool } from '../tools/define-tool.js';
import type { Toolset } from '../tools/toolset.js';
import { validateArgs } from '../tools/validate-args.js';

/** Which calls wait for a person's approval before they run, and for how long. */
export interface ApprovalRules {
  /** The agent's tools: a call is validated first, and an invalid one never asks anyone. */
  toolset: Toolset;
  /** Tools whose calls wait (`*`: every tool), besides those defined with `approval: true`. @default none */
  tools?: readonly string[];
  /** How long a call waits for a decision. @default DEFAULT_APPROVAL_TIMEOUT_SECONDS */
  timeoutMs?: number;
}

/** Whether calls of `tool` wait for approval under `rules`. */
export function needsApproval(tool: Tool, rules: Pick<ApprovalRules, 'tools'>): boolean {
  return tool.approval || (rules.tools ?? []).some((name) => name === '*' || name === tool.name);
}

/** How long a call waits for a decision under `rules`, in ms. */
export function approvalTimeoutMs(rules: ApprovalRules): number {
  return rules.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS * 1000;
}

/**
 * The `approval` requests of a model step's events, logged with them: one per call that is valid
 * and whose tool needs approval, in call order, expiring `timeoutMs` after `now` (ms).
 */
export function approvalRequests(events: readonly NewEvent[], rules: ApprovalRules, now: number): NewEvent[] {
  const expiresAt = (now + approvalTimeoutMs(rules)) / 1000;
  return events.flatMap(({ event, batch, position }) => {
    if (event.type !== 'call' || batch === undefined || position === undefined) return [];
    const call = waitingCall(event.content, position, rules);
    if (call === undefined) return [];
    const payload = {
      id: approvalId(batch, position),
      index: position,
      status: 'requested' as const,
      tool: call.tool,
      args: call.args,
      expires_at: expiresAt,
    };
    const content = `The ${call.tool} call waits for approval.`;
    return [{ batch, position, event: { type: 'approval', content, payload, timestamp: now / 1000 } }];
  });
}

/** The call a `call` event names, when it is valid and its tool needs approval. */
function waitingCall(content: string, position: number, rules: ApprovalRules) {
  const element = storedCall(content, position);
  if (!element.ok) return undefined;
  const found = rules.toolset.find(element.call.name);
  if (!found.ok || !needsApproval(found.tool, rules)) return undefined;
  if (!validateArgs(found.tool, element.call.args).ok) return undefined;
  return { tool: found.tool.name, args: element.call.args };
}
