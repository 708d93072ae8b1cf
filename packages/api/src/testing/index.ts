// Test support for the API and its clients, apart from the root so that no app bundles it.
export { idleStarter, inMemoryApiDeps } from './in-memory-api-deps.js';
export { mcpClientOf } from './mcp-client-of.js';
export { RecordingTaskTokens, type SentTaskSuccess } from './recording-task-tokens.js';
export { RecordingWorkflowStarter } from './recording-workflow-starter.js';
export { type GatewayRequest, restApiEvent } from './rest-api-event.js';
export { type ScriptedCall, stepIntoApprovals } from './step-into-approvals.js';
