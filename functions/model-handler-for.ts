import type { Agent } from '@agentstep/runtime';
import { modelStepDeps } from './model-step-deps.js';

/** What {@link modelStepDeps} gives a function that takes model steps. */
type ModelStepEnvDeps = Awaited<ReturnType<typeof modelStepDeps>>;

/**
 * The handler `createHandler` makes of a function that takes model steps (model-step,
 * advance-turn), from the environment; with `agent` (bundled with the agent's file), its own
 * tools, providers and instructions too.
 */
export async function modelHandlerFor<Handler>(
  createHandler: (deps: ModelStepEnvDeps) => Handler,
  agent?: Agent,
): Promise<Handler> {
  return createHandler(await modelStepDeps(agent));
}
