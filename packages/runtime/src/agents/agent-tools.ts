import * as z from 'zod';
import { defineTool, type Tool, type ToolContext } from '../tools/define-tool.js';
import { runSubAgent, type SubAgentDeps, type SubAgentResult } from './run-sub-agent.js';
import { sessionDepth } from './session-depth.js';
import { type SubAgentTask, subAgentTaskSchema } from './sub-agent-task.js';

/** The `agents` toolset's tool that runs one sub-agent per call. */
export const SPAWN_AGENT = 'spawn_agent';
/** The `agents` toolset's tool that runs several sub-agents at once (its `agents`). */
export const SPAWN_AGENTS = 'spawn_agents';

/** What the `agents` toolset runs with: its limits, and what runs a call's sub-agents. */
export interface SubAgentsConfig {
  /**
   * What runs the sub-agents of a call, asked for when a call runs (locally, the engine that
   * starts them is built after the tools; deployed, the starter names the calling state machine).
   */
  deps(context: ToolContext): SubAgentDeps;
  /** How deep sub-agents may nest: a session this deep refuses to spawn. @default 1 */
  maxDepth?: number;
  /** A sub-agent's model steps. @default 30 */
  maxSteps?: number;
  /** How long one call may wait for its sub-agents. @default 14 minutes, under Lambda's 15 */
  timeoutMs?: number;
  /** How often a waiting call reads a sub-agent's log for its end. @default 250 ms */
  pollMs?: number;
}

/** The most sub-agents one `spawn_agents` call runs. */
const MAX_AGENTS_PER_CALL = 10;

/**
 * The `agents` toolset: `spawn_agent` runs one sub-agent on a task and returns how it ended and
 * its answer; `spawn_agents` runs up to ten at once, results in the order asked. A session as deep
 * as `maxDepth` is refused when the call runs, whatever tools it was shown.
 */
export function agentTools(config: SubAgentsConfig): Tool[] {
  const maxDepth = config.maxDepth ?? 1;
  const run = { maxSteps: config.maxSteps ?? 30, pollMs: config.pollMs ?? 250 };
  const timeoutMs = config.timeoutMs ?? 14 * 60 * 1000;
  const spawn = async (tasks: readonly SubAgentTask[], context: ToolContext): Promise<SubAgentResult[]> => {
    const depth = sessionDepth(context.session);
    if (depth >= maxDepth) {
      throw new Error(
        `Sub-agents may nest ${maxDepth} level${maxDepth === 1 ? '' : 's'} deep (maxDepth ${maxDepth}), and this session is at depth ${depth}: it cannot spawn sub-agents. Do the task yourself.`,
      );
    }
    const deps = config.deps(context);
    return Promise.all(tasks.map((task, index) => runSubAgent(task, { context, index }, deps, run)));
  };
  const nesting = `Sub-agents nest at most ${maxDepth} level${maxDepth === 1 ? '' : 's'} deep.`;
  return [
    defineTool({
      name: SPAWN_AGENT,
      description: `Runs a sub-agent with the persona "You are a ROLE." on a task, on the same model: it sees only the task, none of this conversation, and may take ${run.maxSteps} steps. Returns its status (done, limit, failed, cancelled), its final answer as output, and with outputs the fields its answer gave as JSON. ${nesting}`,
      input: subAgentTaskSchema,
      timeoutMs,
      // A sub-agent's ids come from the call: a second run finds and continues the same turn.
      idempotent: true,
      handler: async (task, context) => (await spawn([task], context))[0],
    }),
    defineTool({
      name: SPAWN_AGENTS,
      description: `Runs up to ${MAX_AGENTS_PER_CALL} sub-agents at once, each as spawn_agent does, and returns their results in the order given. ${nesting}`,
      input: z.object({ agents: z.array(subAgentTaskSchema).min(1).max(MAX_AGENTS_PER_CALL) }),
      timeoutMs,
      // A sub-agent's ids come from the call: a second run finds and continues the same turn.
      idempotent: true,
      handler: ({ agents }, context) => spawn(agents, context),
    }),
  ];
}
