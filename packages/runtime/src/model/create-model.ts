import { AnthropicModel } from './anthropic-model.js';
import { BedrockModel } from './bedrock-model.js';
import type { Model } from './model.js';
import { OpenAIModel } from './openai-model.js';
import { ScriptedModel } from './scripted-model.js';

/** How a model is chosen: `scripted` plays `script`; `bedrock:`, `openai:` and `anthropic:` stream from a provider. */
export interface ModelChoice {
  model: string;
  script?: string | undefined;
  /** Where the script came from, for error messages. */
  scriptSource?: string;
  /** For providers: the server's base URL. @default the provider's API */
  baseURL?: string | undefined;
  /** For providers: the API key. @default the key variable the provider's SDK reads */
  apiKey?: string | undefined;
}

const PROVIDERS = 'scripted, bedrock:<modelId>, openai:<model>, anthropic:<model>';

/** The model a choice names; throws an error that says what is supported. */
export function createModel(choice: ModelChoice): Model {
  const [provider, ...rest] = choice.model.split(':');
  const name = rest.join(':');
  const connection = { baseURL: choice.baseURL, apiKey: choice.apiKey };
  if (provider === 'anthropic' && name !== '') return new AnthropicModel({ model: name, ...connection });
  if (provider === 'bedrock' && name !== '') return new BedrockModel({ modelId: name });
  if (provider === 'openai' && name !== '') return new OpenAIModel({ model: name, ...connection });
  if (choice.model !== 'scripted')
    throw new Error(`Unknown model "${choice.model}". Supported: ${PROVIDERS}.`);
  if (choice.script === undefined)
    throw new Error('The scripted model needs a script: a JSON array of model steps.');
  return ScriptedModel.fromJson(choice.script, choice.scriptSource ?? 'the model script');
}
