import { join } from 'node:path';
import type { RunStats } from '@agentstep/local';
import type { SessionSpend } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';

/**
 * A session's run stats, summed over its turns (the payload maximum is the largest seen), and what
 * its model steps spent: tokens, and the cost estimate (`null` when a model had no price).
 */
export type SessionStats = RunStats & {
  turns: number;
  tokens: { input: number; output: number };
  costUsd: number | null;
};

/** Where a session's stats live. */
export function statsFile(io: CliIo, session: string): string {
  return join(io.dataDir, 'stats', `${encodeURIComponent(session)}.json`);
}

/** Adds one turn's stats to the session's, with the session's spend so far. */
export async function recordStats(
  io: CliIo,
  session: string,
  run: RunStats,
  spend: SessionSpend,
): Promise<SessionStats> {
  const before = await readStats(io, session);
  const stats: SessionStats = {
    turns: (before?.turns ?? 0) + 1,
    tokens: { input: spend.inputTokens, output: spend.outputTokens },
    costUsd: spend.unpriced ? null : spend.costUsd,
    executions: (before?.executions ?? 0) + run.executions,
    stateTransitions: (before?.stateTransitions ?? 0) + run.stateTransitions,
    modelSteps: (before?.modelSteps ?? 0) + run.modelSteps,
    toolCalls: (before?.toolCalls ?? 0) + run.toolCalls,
    maxStatePayloadBytes: Math.max(before?.maxStatePayloadBytes ?? 0, run.maxStatePayloadBytes),
    wallMs: (before?.wallMs ?? 0) + run.wallMs,
  };
  await io.writeFile(statsFile(io, session), `${JSON.stringify(stats, null, 2)}\n`);
  return stats;
}

/** The session's stats, if any run recorded them. */
export async function readStats(io: CliIo, session: string): Promise<SessionStats | undefined> {
  const text = await io.readFile(statsFile(io, session)).catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as SessionStats);
}
