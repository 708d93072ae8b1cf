import { SCRIPTED_MODEL } from '@agentstep/protocol';
import { builtInProviders } from './built-in-providers.js';
import type { Model } from './model.js';
import type { ProviderRegistry } from './provider-registry.js';
import { ScriptedModel } from './scripted-model.js';

/** How a model is chosen: `scripted` plays `script`; `<provider>:<model>` streams from a registered provider. */
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

/**
 * The model a choice names, among `providers` (the built-in ones by default); throws an error that
 * says what is supported.
 */
export function createModel(choice: ModelChoice, providers: ProviderRegistry = builtInProviders()): Model {
  if (choice.model !== SCRIPTED_MODEL)
    return providers.model(choice.model, { baseURL: choice.baseURL, apiKey: choice.apiKey });
  if (choice.script === undefined)
    throw new Error('The scripted model needs a script: a JSON array of model steps.');
  return ScriptedModel.fromJson(choice.script, choice.scriptSource ?? 'the model script');
}
