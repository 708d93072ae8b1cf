import type { SubAgentDeps, SubAgentsConfig } from '@agentstep/runtime/tools';

/** The `agents` toolset's config before its engine exists, and how to give it the engine's once it does. */
export interface LateSubAgents {
  config: SubAgentsConfig;
  bind(deps: SubAgentDeps): void;
}

/**
 * Sub-agents for a local engine, which is built after its tools: a call made before `bind` (none
 * can be: calls run on the engine) fails saying so.
 */
export function lateSubAgents(): LateSubAgents {
  let bound: SubAgentDeps | undefined;
  return {
    config: {
      deps: () => {
        if (bound === undefined)
          throw new Error('The local engine that runs sub-agents has not started yet.');
        return bound;
      },
    },
    bind: (deps) => {
      bound = deps;
    },
  };
}
