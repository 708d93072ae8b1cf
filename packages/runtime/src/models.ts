// The model a name chooses, among all providers: importing it loads every provider's SDK.

export { providersOfAgent } from './agent/providers-of-agent.js';
export { builtInProviders } from './model/built-in-providers.js';
export { createModel, type ModelChoice } from './model/create-model.js';
