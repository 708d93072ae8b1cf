import type { TurnEndStatus } from '@agentstep/protocol';
import { describeTurn } from '@agentstep/runtime';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiDeps } from './api-deps.js';

/** What an ended turn's `ask` answers as structured content. */
export interface AskAnswer {
  session: string;
  turn: string;
  status: TurnEndStatus;
  answer: string;
}

/**
 * An ended turn as `ask` answers it: the answer as text (the end's message when the turn wrote
 * none) and {@link AskAnswer} as structured content; a turn that failed or was cancelled is an
 * error result whose text says so and why. `stored` is the id the session's log is stored under.
 */
export async function mcpTurnResult(
  deps: Pick<ApiDeps, 'log' | 'usage'>,
  stored: string,
  { session, turn }: { session: string; turn: string },
): Promise<CallToolResult> {
  const result = await describeTurn({ session: stored, turn, request: { session } }, deps);
  if ('pending' in result)
    throw new Error(`Turn ${turn} of session ${session} has not ended: its result is not ready.`);
  const answer: AskAnswer = { session, turn, status: result.status, answer: result.answer };
  const failed = result.status === 'failed' || result.status === 'cancelled';
  const text = failed
    ? `Turn ${turn} of session ${session} ${result.status}: ${result.message}`
    : result.answer || result.message;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { ...answer },
    ...(failed ? { isError: true } : {}),
  };
}
