import type { WireEvent } from '@agentstep/protocol';
import { parsedCall } from './parsed-call.js';

/**
 * What a progress notification of `ask` says of a logged event of the turn: a step thought, called
 * tools, got their results or answered; the agent version the turn runs on; a call waits for a
 * person's decision (and how to give it); the context was compacted. `session` is the session as the tenant knows it.
 */
export function mcpProgressMessage(event: WireEvent, session: string): string {
  switch (event.type) {
    case 'call':
      return `Calling ${parsedCall(event.content)?.name ?? 'a tool'}.`;
    case 'result':
      return `${event.payload.success_count} of ${event.payload.tools_executed} calls succeeded.`;
    case 'approval':
      return event.payload.status === 'requested'
        ? `A call of ${event.payload.tool ?? 'a tool'} waits for approval ${event.payload.id}: POST /sessions/${session}/approvals/${event.payload.id} decides it.`
        : `Approval ${event.payload.id} ${event.payload.status}.`;
    case 'turn_end':
      return `The turn ended: ${event.payload.status}.`;
    case 'user':
      return 'The turn began.';
    case 'turn_start':
      return `Running on agent version ${event.payload.version}.`;
    case 'think':
      return 'Thinking.';
    case 'respond':
      return 'Answering.';
    case 'compacted':
      return `Compacted the context: ${event.payload.tokensBefore} → ${event.payload.tokensAfter} tokens.`;
    default:
      return `A ${event.type} event was logged.`;
  }
}
