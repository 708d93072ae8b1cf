// What tests use (adapter suites, the loop synthesized once per run), apart from the root so that
// importing the package does not load Vitest.
export { loadTestAgent, testCacheDir } from './load-test-agent.js';
export { describeTaskTokenCompletionsContract } from './task-tokens/task-token-completions-contract.js';
