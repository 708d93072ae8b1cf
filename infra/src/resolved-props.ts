import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MODEL_PROVIDERS } from '@agentstep/protocol';
// biome-ignore lint/style/noRestrictedImports: the agent file's definition is checked by its own schema at synthesis.
import type { Agent } from '@agentstep/runtime';
import { Duration } from 'aws-cdk-lib';
import type { AgentStepProps } from './agent-step.js';
import { loadAgentFile } from './load-agent-file.js';

/** The props an `AgentStep` builds from, and the agent file they came from. */
export interface ResolvedProps {
  readonly props: AgentStepProps;
  /** The `agent` prop's file, absolute, when there is one. */
  readonly agentFile?: string;
  /** The providers its models may name: the built-in ones, then the agent's own. */
  readonly providers: readonly string[];
}

/**
 * The construct's props over its agent file's (a prop given, not `undefined`, wins), the file
 * resolved from the working directory (the CDK app's folder) and loaded at synthesis.
 */
export function resolvedProps(given: AgentStepProps): ResolvedProps {
  if (given.agent === undefined) return { props: given, providers: MODEL_PROVIDERS };
  const agentFile = resolve(given.agent);
  const agent = loadAgentFile(agentFile);
  const defined = Object.entries(given).filter(([, value]) => value !== undefined);
  return {
    props: { ...agentFileProps(agent, agentFile), ...Object.fromEntries(defined) },
    agentFile,
    providers: [...MODEL_PROVIDERS, ...agent.providers.map((provider) => provider.name)],
  };
}

/**
 * The construct props an agent's definition gives: its model and profiles, instructions, toolsets,
 * fetch hosts, approvals, budget, limits, concurrency, prices, and its script read relative to its
 * file.
 */
function agentFileProps(agent: Agent, file: string): AgentStepProps {
  const { limits } = agent;
  return {
    model: agent.model,
    builtInTools: agent.toolsets,
    ...(Object.keys(agent.modelProfiles).length > 0 ? { modelProfiles: agent.modelProfiles } : {}),
    ...(agent.instructions ? { instructions: agent.instructions } : {}),
    ...(agent.fetchHosts.length > 0 ? { httpAllowHosts: agent.fetchHosts } : {}),
    ...(agent.approvals.length > 0 ? { approvals: agent.approvals } : {}),
    ...(agent.approvalTimeoutSeconds
      ? { approvalTimeout: Duration.seconds(agent.approvalTimeoutSeconds) }
      : {}),
    ...(Object.keys(agent.budget).length > 0 ? { budget: agent.budget } : {}),
    ...(limits.maxSteps ? { maxSteps: limits.maxSteps } : {}),
    ...(limits.stepsPerExecution ? { stepsPerExecution: limits.stepsPerExecution } : {}),
    ...(agent.maxConcurrency ? { maxConcurrency: agent.maxConcurrency } : {}),
    ...(agent.prices ? { prices: agent.prices } : {}),
    ...(agent.script ? { modelScript: scriptOf(agent.script, file) } : {}),
  };
}

/** The script's JSON text, its path relative to the agent file. */
function scriptOf(script: string, file: string): string {
  const path = resolve(dirname(file), script);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `AgentStep prop agent: ${file} names the script ${script}, which cannot be read at ${path}: give a JSON file of model steps relative to the agent file.`,
      { cause: error },
    );
  }
}
