/** The batch id of a turn's n-th model step (from 1): unique in the session because turns are. */
export function batchId(turn: string, turnStep: number): string {
  return `${turn}.${turnStep}`;
}
