import { SCRIPTED_MODEL } from '@agentstep/protocol';
import type { ProviderRegistry } from '@agentstep/runtime';
import { UsageError } from '../usage-error.js';
import { REPLAY_MODEL, type RunOptions } from './run-options.js';

/**
 * Refuses a `--model` or `--model-profile` model that names no model: not `scripted` (nor `replay`
 * for `--model`), and no `<provider>:<model>` of a registered provider. The UsageError lists them.
 */
export function checkModels(options: RunOptions, providers: ProviderRegistry): void {
  const known = providers.providers.map((provider) => `"${provider.name}:<model>"`).join(', ');
  const { model } = options;
  if (model !== SCRIPTED_MODEL && model !== REPLAY_MODEL && providers.providerOf(model) === undefined)
    throw new UsageError(
      `--model must be "${SCRIPTED_MODEL}", "${REPLAY_MODEL}" or one of ${known}, received "${model}".`,
    );
  for (const [name, profile] of Object.entries(options.modelProfiles)) {
    if (profile !== SCRIPTED_MODEL && providers.providerOf(profile) === undefined)
      throw new UsageError(
        `--model-profile ${name}: expected "${SCRIPTED_MODEL}" or ${known}, received ${JSON.stringify(profile)}.`,
      );
  }
}
