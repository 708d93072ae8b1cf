import type { Model } from './model.js';
import { ScriptedModel } from './scripted-model.js';

/** How a model is chosen: `scripted` plays `script` (the JSON text of a script). */
export interface ModelChoice {
  model: string;
  script?: string | undefined;
  /** Where the script came from, for error messages. */
  scriptSource?: string;
}

/** The model a choice names; throws an error that says what is supported. */
export function createModel(choice: ModelChoice): Model {
  if (choice.model !== 'scripted') {
    throw new Error(
      `Unknown model "${choice.model}". Supported: scripted (real providers come with the model-provider release).`,
    );
  }
  if (choice.script === undefined)
    throw new Error('The scripted model needs a script: a JSON array of model steps.');
  return ScriptedModel.fromJson(choice.script, choice.scriptSource ?? 'the model script');
}
