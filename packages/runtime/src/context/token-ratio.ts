import type { StoredEvent } from '@agentstep/protocol';
import * as z from 'zod';
import type { AppendNote, EventLog } from '../event-log/event-log.js';
import type { Model } from '../model/model.js';
import { modelStepKey } from '../usage/model-step-key.js';
import { contextNoteSchema } from './context-note.js';

/**
 * Tokens per estimated token when no earlier request of the model calibrates it: tokenizers give
 * more tokens than UTF-8 bytes over four for code, JSON and most languages but English, so the
 * estimate errs large until a provider's figure corrects it.
 */
export const DEFAULT_TOKEN_RATIO = 1.25;
/** Bounds on a calibrated ratio: a figure outside them says more about the figure than the tokenizer. */
const RATIO_BOUNDS = [0.5, 4] as const;

/** The part of a step's note that calibrates: which model it ran on, and its request's size. */
const calibratingNoteSchema = z.object({ model: z.string(), context: contextNoteSchema.optional() });

/**
 * Input tokens per estimated token for `model`'s next request: what the provider reported for the
 * session's latest model step over what that step estimated, when that step ran on the same model
 * and both are known, else {@link DEFAULT_TOKEN_RATIO}. Its note is read, unless it came with the
 * mark the step's snapshot gave (`marked`).
 */
export async function tokenRatio(
  session: string,
  log: readonly StoredEvent[],
  model: Model,
  deps: { log: EventLog },
  marked?: { mark: string | undefined; markNote?: AppendNote },
): Promise<number> {
  const batch = log.findLast((stored) => stored.batch !== undefined)?.batch;
  if (batch === undefined) return DEFAULT_TOKEN_RATIO;
  const known = marked?.mark === batch ? marked.markNote : undefined;
  const note = calibratingNoteSchema.safeParse(
    known ?? (await deps.log.appended(session, modelStepKey(batch)))?.note,
  );
  const sent = note.data?.context;
  if (note.data?.model !== model.id || sent?.inputTokens === undefined || sent.estimatedTokens === 0)
    return DEFAULT_TOKEN_RATIO;
  const [low, high] = RATIO_BOUNDS;
  return Math.min(high, Math.max(low, sent.inputTokens / sent.estimatedTokens));
}
