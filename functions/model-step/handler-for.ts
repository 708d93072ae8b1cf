import type { Agent } from '@agentstep/runtime';
import { modelStepDeps } from '../model-step-deps.js';
import { createHandler } from './handler.js';

/**
 * The function's handler from the environment; with `agent` (bundled with the agent's file), its
 * own tools and providers too.
 */
export async function handlerFor(agent?: Agent) {
  return createHandler(await modelStepDeps(agent));
}
