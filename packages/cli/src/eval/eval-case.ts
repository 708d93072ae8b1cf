import {
  persistedEventSchema,
  TURN_END_STATUSES,
  type TurnEndStatus,
  turnUsageSchema,
} from '@agentstep/protocol';
import * as z from 'zod';

/** A call as a turn made it: its tool and arguments, and the outcome it had. */
export const recordedCallSchema = z.object({
  tool: z.string(),
  args: z.unknown(),
  status: z.enum(['success', 'failure']),
  content: z.unknown(),
});

/** A recorded (or replayed) call. */
export type RecordedCall = z.infer<typeof recordedCallSchema>;

/**
 * One turn of a real session as a test case (decision 0048), one JSON line of `agentstep eval
 * export`: the log before it (the context it started from), its message, the calls it made with
 * their recorded outcomes, its answer, status, model steps and usage.
 */
export const evalCaseSchema = z.object({
  /** `<session>/<turn>`. */
  id: z.string().min(1),
  session: z.string().min(1),
  turn: z.string().min(1),
  /** The session's events before the turn's user message, in order, as the log stores them. */
  history: z.array(
    z.object({
      batch: z.string().optional(),
      position: z.number().int().nonnegative().optional(),
      event: persistedEventSchema,
    }),
  ),
  message: z.string(),
  calls: z.array(recordedCallSchema),
  answer: z.string(),
  status: z.enum(TURN_END_STATUSES),
  steps: z.number().int().nonnegative(),
  usage: turnUsageSchema,
});

/** One eval case. */
export type EvalCase = z.infer<typeof evalCaseSchema>;

/** What a candidate agent did on a case, its calls answered from the case's recording. */
export interface CaseRun {
  answer: string;
  status: TurnEndStatus;
  /** The calls it made, in order, with the outcomes the replay gave them. */
  calls: RecordedCall[];
  steps: number;
  usage: z.infer<typeof turnUsageSchema>;
  /** Its calls the recording had no outcome for (each answered `not recorded`, a failure). */
  notRecorded: number;
}

/** A scorer: a name, and a score from 0 to 1 of a candidate's run on a case. */
export interface Scorer {
  name: string;
  score(input: { case: EvalCase; run: CaseRun }): number | Promise<number>;
}

/** A scorer of your own, for `agentstep eval run --scorer FILE` (its default export, or a list of them). */
export function defineScorer(scorer: Scorer): Scorer {
  return scorer;
}

/** One case's result in `eval run`'s JSON. */
export interface CaseResult {
  id: string;
  scores: Record<string, number>;
  answer: string;
  status: TurnEndStatus;
  steps: number;
  usage: z.infer<typeof turnUsageSchema>;
  notRecorded: number;
}

/** What `eval run` writes: each case's result and the totals (each scorer's mean). */
export interface EvalResults {
  cases: CaseResult[];
  totals: {
    scores: Record<string, number>;
    steps: number;
    input: number;
    output: number;
    costUsd?: number;
    notRecorded: number;
  };
}
