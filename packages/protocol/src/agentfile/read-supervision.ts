import type { AgentfileToken } from './agentfile-token.js';
import type { ParseState } from './parse-state.js';
import type { WorkflowSupervision } from './workflow-spec.js';

/** Reads a modifier after its first token: `SUPERVISED` (then an optional `HUMAN`) or `UNSUPERVISED`. */
export function readSupervision(state: ParseState, start: AgentfileToken): WorkflowSupervision {
  if (start.value === 'UNSUPERVISED') return 'unsupervised';
  if (!state.isKeyword(state.peek(), 'HUMAN')) return 'supervised';
  state.next();
  return 'human';
}
