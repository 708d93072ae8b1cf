import { type LocalEngine, LocalTaskTokens } from '@agentstep/local';
import { submitTurn, systemClock, type Tool } from '@agentstep/runtime';
import type { CliIo } from '../io/cli-io.js';
import { type EngineParts, localEngine } from '../local/open-engine.js';
import type { OpenStore } from '../local/open-store.js';
import type { RunOptions } from '../local/run-options.js';
import type { CaseRun, EvalCase } from './eval-case.js';
import { evalCasesOf } from './export-cases.js';
import { replayToolset } from './replay-toolset.js';

/** The candidate agent as every case runs it: its options and what they load once for all cases. */
export interface Candidate {
  /** Builds an engine for one case on its own store and its replaying tools. */
  engine(stores: OpenStore, tools: Tool[]): LocalEngine;
  tools: readonly Tool[];
}

/** The session and turn a case is replayed as, in its own in-memory store. */
const SESSION = 's-eval';
const TURN = 't-eval';
const HISTORY = 'eval-history';

/**
 * Replays one case with the candidate (decision 0048): a store of its own holds the case's history
 * as the log did, the candidate's turn runs on the local engine from the case's message, and each
 * call it makes is answered from the recording (`replayToolset`): no tool runs. Resolves with what
 * it answered, called, took and spent.
 */
export async function runCase(evalCase: EvalCase, candidate: Candidate, io: CliIo): Promise<CaseRun> {
  const store = await io.openStore('memory', () => {});
  try {
    if (evalCase.history.length > 0) {
      await store.log.acquireTurn(SESSION, HISTORY);
      const events = evalCase.history.map(({ event, batch, position }) => ({
        event,
        ...(batch === undefined ? {} : { batch }),
        ...(position === undefined ? {} : { position }),
      }));
      await store.log.append({ session: SESSION, turn: HISTORY, key: HISTORY, events, release: true });
    }
    const replay = replayToolset(candidate.tools, evalCase.calls);
    const engine = candidate.engine(store, replay.tools);
    await submitTurn(
      { session: SESSION, turn: TURN, prompt: evalCase.message },
      { ...store, clock: systemClock },
    );
    await engine.runTurn({ session: SESSION, turn: TURN });
    const [events, entries] = await Promise.all([store.log.read(SESSION), store.usage.list(SESSION)]);
    const ran = evalCasesOf(SESSION, { events, entries }).find(({ turn }) => turn === TURN);
    if (ran === undefined) throw new Error(`case ${evalCase.id}: the candidate's turn did not end`);
    const { answer, status, calls, steps, usage } = ran;
    return { answer, status, calls, steps, usage, notRecorded: replay.notRecorded() };
  } finally {
    await store.close();
  }
}

/** A candidate's engine for a case: its options with no approval waits, on the case's store and tools. */
export function candidateEngine(
  options: RunOptions,
  parts: Omit<EngineParts, 'stores' | 'tools' | 'taskTokens'>,
): Candidate['engine'] {
  return (stores, tools) =>
    localEngine(
      { ...options, approvals: [] },
      { ...parts, stores, tools, taskTokens: new LocalTaskTokens(stores.completions) },
    );
}
