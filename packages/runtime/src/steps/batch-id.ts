/** The batch id of a turn's n-th model step (from 1): unique in the session because turns are. */
export function batchId(turn: string, turnStep: number): string {
  return `${turn}.${turnStep}`;
}

/** The turn a batch id names (see {@link batchId}). */
export function turnOfBatch(batch: string): string {
  return batch.slice(0, batch.lastIndexOf('.'));
}

/** The turn step a batch id names (see {@link batchId}). */
export function stepOfBatch(batch: string): number {
  return Number(batch.slice(batch.lastIndexOf('.') + 1));
}
