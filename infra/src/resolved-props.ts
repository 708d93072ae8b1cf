import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MODEL_PROVIDERS } from '@agentstep/protocol';
import { Duration } from 'aws-cdk-lib';
import type { AgentStepProps } from './agent-step.js';
import { deployedA2aSecrets } from './deployed-a2a-secrets.js';
import { deployedMcpSecrets } from './deployed-mcp-secrets.js';
import { type AgentFileSettings, loadAgentFile } from './load-agent-file.js';

/** The props an `AgentStep` builds from, and the agent file they came from. */
export interface ResolvedProps {
  readonly props: AgentStepProps;
  /** The `agent` prop's file, absolute, when there is one. */
  readonly agentFile?: string;
  /** The providers its models may name: the built-in ones, then the agent's own. */
  readonly providers: readonly string[];
  /**
   * The functions (names or ARNs) of the agent file's Lambda tools: its bundled tools function
   * invokes them, so they are not in the environment.
   */
  readonly agentLambdaTools: readonly string[];
  /**
   * The secrets (names or ARNs) the headers of the agent file's MCP servers name: its bundled
   * functions that list or call their tools read them.
   */
  readonly agentMcpSecrets: readonly string[];
  /** The secrets the headers of the agent file's remote A2A agents name: its tools function reads them. */
  readonly agentA2aSecrets: readonly string[];
  /** The agent file's own tools as its version counts them (bundled, so not props). */
  readonly agentTools: readonly Readonly<Record<string, unknown>>[];
  /** The agent file's agent's name, when there is one. */
  readonly agentName?: string;
}

/**
 * The construct's props over its agent file's, as the CLI's flags go over it: a prop given (not
 * `undefined`) replaces the file's, but `budget`, `modelProfiles` and `context` merge over the
 * file's (the prop's keys win). The file is resolved from the working directory (where the CDK app runs) and
 * loaded at synthesis. Its instructions are not props: the functions bundled with the file read
 * them there, unless the `instructions` prop overrides them. Its MCP servers and remote A2A agents
 * must be reachable from Lambda over HTTPS: a `stdio:` or plain `http://` one fails synthesis.
 */
export function resolvedProps(given: AgentStepProps): ResolvedProps {
  if (given.agent === undefined)
    return {
      props: given,
      providers: MODEL_PROVIDERS,
      agentLambdaTools: [],
      agentMcpSecrets: [],
      agentA2aSecrets: [],
      agentTools: [],
    };
  const agentFile = resolve(given.agent);
  const settings = loadAgentFile(agentFile);
  const agentMcpSecrets = deployedMcpSecrets(settings.mcpServers);
  const agentA2aSecrets = deployedA2aSecrets(settings.a2aAgents ?? []);
  const defined: AgentStepProps = Object.fromEntries(
    Object.entries(given).filter(([, value]) => value !== undefined),
  );
  const fromFile = agentFileProps(settings, agentFile);
  const budget = merged(fromFile.budget, defined.budget);
  const modelProfiles = merged(fromFile.modelProfiles, defined.modelProfiles);
  const context = merged(fromFile.context, defined.context);
  return {
    props: {
      ...fromFile,
      ...defined,
      ...(budget ? { budget } : {}),
      ...(modelProfiles ? { modelProfiles } : {}),
      ...(context ? { context } : {}),
    },
    agentFile,
    providers: [...MODEL_PROVIDERS, ...settings.providers],
    agentLambdaTools: settings.lambdaTools.map((tool) => tool.functionName),
    agentMcpSecrets,
    agentA2aSecrets,
    agentTools: settings.tools,
    agentName: settings.name,
  };
}

/** `given`'s keys over `base`'s, when either is there. */
function merged<T extends object>(base: T | undefined, given: T | undefined): T | undefined {
  return base || given ? ({ ...base, ...given } as T) : undefined;
}

/**
 * The construct props an agent's definition gives: its model and profiles, toolsets, fetch hosts,
 * approvals, budget, limits, concurrency, context, prices, and its script read relative to its file.
 */
function agentFileProps(agent: AgentFileSettings, file: string): AgentStepProps {
  const { limits } = agent;
  return {
    model: agent.model,
    builtInTools: agent.toolsets,
    ...(Object.keys(agent.modelProfiles).length > 0 ? { modelProfiles: agent.modelProfiles } : {}),
    ...(agent.fetchHosts.length > 0 ? { httpAllowHosts: agent.fetchHosts } : {}),
    ...(agent.approvals.length > 0 ? { approvals: agent.approvals } : {}),
    ...(agent.approvalTimeoutSeconds
      ? { approvalTimeout: Duration.seconds(agent.approvalTimeoutSeconds) }
      : {}),
    ...(Object.keys(agent.budget).length > 0 ? { budget: agent.budget } : {}),
    ...(limits.maxSteps ? { maxSteps: limits.maxSteps } : {}),
    ...(limits.stepsPerExecution ? { stepsPerExecution: limits.stepsPerExecution } : {}),
    ...(limits.repeatedCalls ? { repeatedCalls: limits.repeatedCalls } : {}),
    ...(limits.stepsWithoutProgress ? { stepsWithoutProgress: limits.stepsWithoutProgress } : {}),
    ...(agent.maxConcurrency ? { maxConcurrency: agent.maxConcurrency } : {}),
    ...(Object.keys(agent.context).length > 0 ? { context: agent.context } : {}),
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
