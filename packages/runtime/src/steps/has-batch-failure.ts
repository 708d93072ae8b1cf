import { BATCH_TOOL_NAME } from '@agentstep/protocol';
import type { OutcomeStore } from '../outcomes/outcome-store.js';

/** Whether a batch's `<execute>` body had no positions (A6): its one outcome is the body's failure. */
export async function hasBatchFailure(
  session: string,
  batch: string,
  outcomes: OutcomeStore,
): Promise<boolean> {
  const outcome = await outcomes.get({ session, batch, position: 0 });
  return outcome?.tool === BATCH_TOOL_NAME;
}
