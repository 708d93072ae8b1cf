// Remote A2A agents as tools. The A2A client (`@a2a-js/sdk`) loads on a tool's first call, not here.
export {
  type A2aAgentSpec,
  a2aAgentSpecSchema,
  a2aToolName,
  DEFAULT_A2A_TIMEOUT_MS,
  MAX_A2A_TIMEOUT_MS,
} from './a2a-agent-spec.js';
export { a2aAgentTool } from './a2a-agent-tool.js';
export type { A2aAnswer } from './send-a2a-message.js';
