import { OpenAIModel } from './openai-model.js';
import type { Provider } from './provider.js';

/** `openai:<model>`: the Chat Completions API of OpenAI or any OpenAI-compatible server. */
export const openAIProvider: Provider = {
  name: 'openai',
  description: 'any OpenAI-compatible server (key from OPENAI_API_KEY)',
  keyVariable: 'OPENAI_API_KEY',
  model: (model, connection) => new OpenAIModel({ model, ...connection }),
};
