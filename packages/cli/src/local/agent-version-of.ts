import type { SynthesizedAgent } from '@agentstep/local';
import { agentVersion } from '@agentstep/protocol/node';
import { agentVersionInputs, type Tool } from '@agentstep/runtime';
import { localMcpServers } from './local-mcp.js';
import type { RunOptions } from './run-options.js';
import { remoteAgentsOf } from './tools-for.js';

/** An agent's version, and what went into it (`agentstep version --json`). */
export interface AgentVersionOf {
  version: string;
  inputs: Record<string, unknown>;
}

/**
 * The version of the agent the options run (decision 0040): the agent file's settings with the flags
 * over them, the tools offered, and the loop's definition.
 */
export function agentVersionOf(
  options: RunOptions,
  tools: readonly Tool[],
  loop: SynthesizedAgent,
): AgentVersionOf {
  const agent = options.loadedAgent?.agent;
  const { maxSteps, stepsPerExecution, approvalTimeoutSeconds } = options;
  const settings = {
    model: options.model,
    modelProfiles: options.modelProfiles,
    providers: (agent?.providers ?? []).map((provider) => provider.name),
    approvals: options.approvals,
    ...(approvalTimeoutSeconds === undefined ? {} : { approvalTimeoutSeconds }),
    budget: options.budget,
    limits: {
      ...agent?.limits,
      ...(maxSteps === undefined ? {} : { maxSteps }),
      ...(stepsPerExecution === undefined ? {} : { stepsPerExecution }),
    },
    context: options.context,
    // The agent file's MCP servers and remote agents, with the flags' over them.
    mcpServers: localMcpServers(options),
    a2aAgents: remoteAgentsOf(options),
    ...(agent?.instructions === undefined ? {} : { instructions: agent.instructions }),
    ...(agent?.maxConcurrency === undefined ? {} : { maxConcurrency: agent.maxConcurrency }),
    ...(agent?.prices === undefined ? {} : { prices: agent.prices }),
  };
  const inputs = {
    ...agentVersionInputs(settings, tools, loop.definition),
    toolExecution: options.sequential ? 'sequential' : 'parallel',
  };
  return { version: agentVersion(inputs), inputs };
}
