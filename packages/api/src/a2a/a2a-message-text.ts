import type { ApprovalDecisionBody } from '@agentstep/protocol';
import { A2aError } from './a2a-error.js';
import type { A2aPart } from './a2a-wire.js';

/**
 * A message's parts as the turn's user message: text parts as written, data parts as JSON, one
 * after another. A file part (by URL or bytes) is refused: this agent reads text and data.
 */
export function a2aMessageText(parts: readonly A2aPart[]): string {
  return parts
    .map((part) => {
      if (part.text !== undefined) return part.text;
      if (part.data !== undefined) return JSON.stringify(part.data);
      throw new A2aError(
        'contentTypeNotSupported',
        `This agent reads text and data parts, not files${part.mediaType ? ` (${part.mediaType})` : ''}: send the file's content as text, or a link to it in the text.`,
      );
    })
    .join('\n\n');
}

/** A decision a message gives, and the approval it names, if it names one. */
export interface A2aDecision {
  body: ApprovalDecisionBody;
  approval?: string;
}

/**
 * The decision a message answering an input-required task gives: a data part `{"decision":
 * "approve" | "deny", "approval"?: ID, "reason"?: TEXT}`, or text that starts with "approve" or
 * "deny" (what follows is the reason). Anything else is refused, saying what to send.
 */
export function a2aDecision(parts: readonly A2aPart[]): A2aDecision {
  for (const part of parts) {
    const given = part.data === undefined ? decisionInText(part.text ?? '') : decisionInData(part.data);
    if (given !== undefined) return given;
  }
  throw new A2aError(
    'invalidParams',
    'This task waits for a person to approve or deny a call: answer "approve" or "deny" (a reason may follow), or send a data part {"decision": "approve" | "deny", "approval"?: ID, "reason"?: TEXT}.',
  );
}

function decisionInText(text: string): A2aDecision | undefined {
  const said = /^\s*(approve|deny)\b[\s:,.-]*([\s\S]*)$/i.exec(text);
  if (said === null) return undefined;
  const decision = said[1]?.toLowerCase() === 'approve' ? 'approve' : 'deny';
  const reason = said[2]?.trim() ?? '';
  return { body: { decision, ...(reason === '' ? {} : { reason }) } };
}

function decisionInData(data: unknown): A2aDecision | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { decision, approval, reason } = data as Record<string, unknown>;
  if (decision !== 'approve' && decision !== 'deny') return undefined;
  return {
    body: { decision, ...(typeof reason === 'string' && reason !== '' ? { reason } : {}) },
    ...(typeof approval === 'string' ? { approval } : {}),
  };
}
