// Test suites for adapters, apart from the root so that importing the package does not load Vitest.
export { describeTaskTokenCompletionsContract } from './task-tokens/task-token-completions-contract.js';
