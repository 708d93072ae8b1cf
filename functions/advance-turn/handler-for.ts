import type { Agent } from '@agentstep/runtime';
import { modelHandlerFor } from '../model-handler-for.js';
import { createHandler } from './handler.js';

/**
 * The function's handler from the environment; with `agent` (bundled with the agent's file), its
 * own tools, providers and instructions too.
 */
export function handlerFor(agent?: Agent) {
  return modelHandlerFor(createHandler, agent);
}
