import type { ToolOutcome } from '@agentstep/protocol';

/**
 * The failure of a non-idempotent call that may have run but has no stored outcome (decision
 * 0031): the model reads `outcome unknown: WHY`, and the call is never run a second time.
 */
export function outcomeUnknown(tool: string, why: string): ToolOutcome {
  return { tool, status: 'failure', content: outcomeUnknownText(why) };
}

/** The text of such a failure, `outcome unknown: WHY`, for a tool whose failure is a thrown error. */
export function outcomeUnknownText(why: string): string {
  return `outcome unknown: ${why}`;
}
