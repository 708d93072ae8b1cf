// The Anthropic adapter, apart from the core so that only functions that use it load the Anthropic SDK.
export { AnthropicModel, type AnthropicModelOptions } from './model/anthropic-model.js';
export { anthropicProvider } from './model/anthropic-provider.js';
