import { BedrockModel } from './bedrock-model.js';
import type { Provider } from './provider.js';

/**
 * `bedrock:<modelId>`: Amazon Bedrock's ConverseStream, with the AWS credentials and region the
 * SDK finds (no API key), at the connection's base URL when it gives one.
 */
export const bedrockProvider: Provider = {
  name: 'bedrock',
  description: 'ConverseStream with your AWS credentials',
  model: (modelId, connection) => new BedrockModel({ modelId, baseURL: connection.baseURL }),
};
