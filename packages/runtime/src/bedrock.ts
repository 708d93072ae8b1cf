// The Bedrock adapter, apart from the core so that only functions that use it load the Bedrock client.
export { BedrockModel, type BedrockModelOptions } from './model/bedrock-model.js';
export { bedrockProvider } from './model/bedrock-provider.js';
