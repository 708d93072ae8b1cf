import {
  BATCH_CAPS,
  type CallResult,
  INLINE_OUTCOME_BYTES,
  INLINE_OUTCOMES_BYTES,
} from '@agentstep/protocol';
import type { StoredOutcome } from '../outcomes/outcome-store.js';
import { stateBytes } from './state-bytes.js';

/**
 * What a call's map item gives back: its status, and its stored outcome while that is small
 * enough for its batch of `count` calls (each carries at most its share of
 * {@link INLINE_OUTCOMES_BYTES}, and {@link INLINE_OUTCOME_BYTES}); otherwise `null`.
 */
export function callResult(position: number, outcome: StoredOutcome, count: number | undefined): CallResult {
  const share = Math.min(INLINE_OUTCOME_BYTES, INLINE_OUTCOMES_BYTES / (count ?? BATCH_CAPS.calls));
  const carried = stateBytes(outcome) <= share;
  return { position, status: outcome.status, outcome: carried ? outcome : null };
}
