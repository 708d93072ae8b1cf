import { SUB_AGENT_SEPARATOR } from './sub-agent-ids.js';

/** How deep a session is among sub-agents: 0 for a session no sub-agent runs in, 1 for a sub-agent's, … */
export function sessionDepth(session: string): number {
  return session.split(SUB_AGENT_SEPARATOR).length - 1;
}
