import { SCRIPTED_MODEL } from '@agentstep/protocol';
import * as z from 'zod';

/**
 * A model as `--model` names it, `scripted` or `<provider>:<model>`, where the provider is one of
 * `providers` (the built-in ones and the agent's own).
 */
export function modelNameSchema(providers: readonly string[]) {
  return z.string().refine(
    (model) => {
      const colon = model.indexOf(':');
      return (
        model === SCRIPTED_MODEL || (providers.includes(model.slice(0, colon)) && colon < model.length - 1)
      );
    },
    {
      error: (issue) =>
        `expected "${SCRIPTED_MODEL}" or ${providers.map((provider) => `"${provider}:<model>"`).join(', ')}, received ${JSON.stringify(issue.input)}`,
    },
  );
}
