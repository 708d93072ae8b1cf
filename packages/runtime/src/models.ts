// The model a name chooses, among all providers: importing it loads every provider's SDK.

export { agentProviders } from './agent/agent-providers.js';
export { builtInProviders } from './model/built-in-providers.js';
export { createModel, type ModelChoice } from './model/create-model.js';
