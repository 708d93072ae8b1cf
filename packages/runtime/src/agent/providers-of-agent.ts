import { builtInProviders } from '../model/built-in-providers.js';
import type { ProviderRegistry } from '../model/provider-registry.js';
import type { Agent } from './define-agent.js';

/** The model providers an agent's models may name: the built-in ones, then the agent's own. */
export function providersOfAgent(agent: Pick<Agent, 'providers'>): ProviderRegistry {
  const providers = builtInProviders();
  for (const provider of agent.providers) providers.register(provider);
  return providers;
}
