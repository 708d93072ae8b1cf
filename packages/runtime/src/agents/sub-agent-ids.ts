import { createHash } from 'node:crypto';
import { isSessionId, MAX_SESSION_ID_LENGTH } from '@agentstep/protocol';
import type { ToolContext } from '../tools/define-tool.js';

/**
 * What joins a sub-agent's session id to its parent's: `<parent>--sub-<hash>`. Generated ids
 * (`s-…`, requested `s-<hash>`), tenants' (`<tag>.<id>`) and workflow goals' (`<run>.<n>`) never
 * hold it, so how often an id holds it is its session's depth (a caller's own id holding it only
 * counts as deeper, so refuses sooner).
 */
export const SUB_AGENT_SEPARATOR = '--sub-';

/** Where one sub-agent of a call runs: a child session of the caller's, and the turn in it. */
export interface SubAgentIds {
  session: string;
  turn: string;
}

/**
 * The ids of the sub-agent at `index` of a call, the same on every delivery of that call (derived
 * from its session, batch and position), so a retried call finds the sub-agent it started. The turn
 * id is also its execution's name, unique across sessions as Step Functions needs.
 */
export function subAgentIds(
  context: Pick<ToolContext, 'session' | 'batch' | 'position'>,
  index: number,
): SubAgentIds {
  const key = [context.session, context.batch, context.position, index].join('\n');
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 12);
  const session = `${context.session}${SUB_AGENT_SEPARATOR}${hash}`;
  if (!isSessionId(session)) {
    throw new Error(
      `Session ${context.session} is too long to name its sub-agents' sessions (${session.length} characters, over ${MAX_SESSION_ID_LENGTH}): run sub-agents from a session with a shorter id.`,
    );
  }
  return { session, turn: `t-${hash}` };
}
