import { agentTools, type SubAgentsConfig } from '../agents/agent-tools.js';
import { httpFetchTool } from '../http/http-fetch-tool.js';
import type { Workspace } from '../workspace/workspace.js';
import { workspaceTools } from '../workspace/workspace-tools.js';
import type { Tool } from './define-tool.js';
import { demoTools } from './demo-tools.js';

/** What the built-in toolsets run on. */
export interface BuiltInToolsConfig {
  /** The workspace of the `workspace` toolset; a call fails with a clear message without one. */
  workspace?: Workspace;
  /** Hosts the `http` toolset's `http_fetch` may fetch (exact or `*.domain`). @default none */
  httpAllowHosts?: readonly string[];
  /** What the `agents` toolset runs sub-agents with; a call fails with a clear message without it. */
  agents?: SubAgentsConfig;
}

/** The `agents` toolset of a deployment that did not say how to run sub-agents. */
const NO_SUB_AGENTS: SubAgentsConfig = {
  deps: () => {
    throw new Error('This deployment cannot run sub-agents: it has no execution starter configured.');
  },
};

const TOOLSETS: Readonly<Record<string, (config: BuiltInToolsConfig) => readonly Tool[]>> = {
  demo: () => demoTools,
  http: (config) => [httpFetchTool({ allowHosts: config.httpAllowHosts ?? [] })],
  workspace: (config) =>
    workspaceTools(() => {
      if (config.workspace === undefined) throw new Error('This deployment has no workspace configured.');
      return config.workspace;
    }),
  agents: (config) => agentTools(config.agents ?? NO_SUB_AGENTS),
};

/** The names of the built-in toolsets, as `--tools` and the construct's `builtInTools` take them. */
export const BUILT_IN_TOOLSETS: readonly string[] = Object.keys(TOOLSETS);

/** The tools of the named built-in toolsets; an unknown name is an error that lists the known ones. */
export function builtInTools(names: readonly string[], config: BuiltInToolsConfig = {}): Tool[] {
  return names.flatMap((name) => {
    const toolset = TOOLSETS[name];
    if (toolset === undefined) {
      throw new Error(`Unknown toolset "${name}". Built-in toolsets: ${BUILT_IN_TOOLSETS.join(', ')}.`);
    }
    return toolset(config);
  });
}
