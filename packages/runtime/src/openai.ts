// The OpenAI adapter, apart from the core so that only functions that use it load the OpenAI SDK.
export { OpenAIModel, type OpenAIModelOptions } from './model/openai-model.js';
export { openAIProvider } from './model/openai-provider.js';
