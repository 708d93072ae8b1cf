import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Provider, ProviderRegistry } from '@agentstep/runtime';
import { providersOfAgent } from '@agentstep/runtime/models';
import type { LoadedAgentFile } from '../agent-file/load-agent-file.js';
import { UsageError } from '../usage-error.js';

/**
 * The built-in model providers, then the agent file's own, then the default export of each module
 * `--provider` names (a path, from the working directory), checked against the runtime's provider
 * schema: a provider whose name is taken, or a module that does not load or exports no provider, is
 * a UsageError that says which and why.
 */
export async function loadProviders(
  modules: readonly string[],
  loaded?: LoadedAgentFile,
): Promise<ProviderRegistry> {
  const providers = agentProviders(loaded);
  for (const path of modules) {
    const exported = await defaultExport(path);
    try {
      providers.register(exported as Provider);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new UsageError(`--provider ${path}, its default export: ${reason}`, { cause: error });
    }
  }
  return providers;
}

function agentProviders(loaded: LoadedAgentFile | undefined): ProviderRegistry {
  try {
    return providersOfAgent({ providers: loaded?.agent.providers ?? [] });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${loaded?.file}, its providers: ${reason}`, { cause: error });
  }
}

async function defaultExport(path: string): Promise<unknown> {
  let module: { default?: unknown };
  try {
    module = await import(pathToFileURL(resolve(path)).href);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new UsageError(`--provider ${path}: cannot load it as a module (${reason}).`, { cause: error });
  }
  if (module.default === undefined)
    throw new UsageError(
      `--provider ${path}: the module has no default export; export default { name, description, model(modelId, connection) }.`,
    );
  return module.default;
}
