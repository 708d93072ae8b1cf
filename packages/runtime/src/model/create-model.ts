import { providerModel, SCRIPTED_MODEL } from '@agentstep/protocol';
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
  const named = providerModel(choice.model);
  const connection = { baseURL: choice.baseURL, apiKey: choice.apiKey };
  if (named?.provider === 'anthropic') return new AnthropicModel({ model: named.modelId, ...connection });
  if (named?.provider === 'bedrock') return new BedrockModel({ modelId: named.modelId });
  if (named?.provider === 'openai') return new OpenAIModel({ model: named.modelId, ...connection });
  if (choice.model !== SCRIPTED_MODEL)
    throw new Error(`Unknown model "${choice.model}". Supported: ${PROVIDERS}.`);
  if (choice.script === undefined)
    throw new Error('The scripted model needs a script: a JSON array of model steps.');
  return ScriptedModel.fromJson(choice.script, choice.scriptSource ?? 'the model script');
}
