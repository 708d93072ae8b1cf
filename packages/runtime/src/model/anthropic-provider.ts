import { AnthropicModel } from './anthropic-model.js';
import type { Provider } from './provider.js';

/** `anthropic:<model>`: Anthropic's Messages API. */
export const anthropicProvider: Provider = {
  name: 'anthropic',
  description: 'the Messages API (ANTHROPIC_API_KEY)',
  keyVariable: 'ANTHROPIC_API_KEY',
  model: (model, connection) => new AnthropicModel({ model, ...connection }),
};
