// The built-in toolsets by name, apart from the core as they include the http tool.

export { type AgentToolsConfig, toolsOfAgent } from './agent/tools-of-agent.js';
export { agentTools, type SubAgentsConfig } from './agents/agent-tools.js';
export type { SubAgentDeps, SubAgentResult } from './agents/run-sub-agent.js';
export { BUILT_IN_TOOLSETS, type BuiltInToolsConfig, builtInTools } from './tools/built-in-tools.js';
