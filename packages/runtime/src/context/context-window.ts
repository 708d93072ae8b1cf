import { contextWindowOf } from '@agentstep/protocol';
import type { Model } from '../model/model.js';

/**
 * The input tokens one request to `model` may hold: the agent's own setting (`windowTokens`), else
 * what the model's provider says, else the well-known window of its id; `undefined` when none is
 * known, and then the context is never compacted.
 */
export function windowOf(model: Model, settings: { windowTokens?: number } = {}): number | undefined {
  return settings.windowTokens ?? model.contextWindow ?? contextWindowOf(model.id);
}
