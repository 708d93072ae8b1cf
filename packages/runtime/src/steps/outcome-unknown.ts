import type { ToolOutcome } from '@agentstep/protocol';

/**
 * The failure of a non-idempotent call that may have run but has no stored outcome (decision
 * 0031): the model reads `outcome unknown: WHY`, and the call is never run a second time.
 */
export function outcomeUnknown(tool: string, why: string): ToolOutcome {
  return { tool, status: 'failure', content: `outcome unknown: ${why}` };
}
