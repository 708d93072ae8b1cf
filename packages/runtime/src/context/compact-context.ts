import type { LoopState, PriceTable, StoredEvent, WireEventOf } from '@agentstep/protocol';
import { buildMessages, estimateRequestTokens } from '@agentstep/protocol';
import type { Clock } from '../clock/clock.js';
import type { TurnCarry } from '../event-log/context-start.js';
import type { EventLog } from '../event-log/event-log.js';
import type { Model } from '../model/model.js';
import { compactionKey } from '../usage/model-step-key.js';
import { stepSpend } from '../usage/step-spend.js';
import { type CompactionPlan, type CompactionSizing, planCompaction } from './plan-compaction.js';
import { type LeftOut, type Replacement, replacementOf } from './replacement-of.js';

/** What a compaction writes with. */
export interface CompactionDeps {
  log: EventLog;
  clock: Clock;
  /** Prices by model id, for the summary's cost. @default DEFAULT_PRICES */
  prices?: PriceTable;
}

/** A compaction before model step `batch` of the turn `state` names. */
export interface CompactionInput extends CompactionSizing {
  state: Pick<LoopState, 'session' | 'turn' | 'step' | 'turnSteps'>;
  batch: string;
  /** The model that writes the summary. */
  summaryModel: Model;
  /** What the turn carries past the compaction, recorded with it (decision 0039). */
  carry?: () => TurnCarry;
}

/**
 * Compacts the context of the log before model step `batch` (decision 0035): plans the cut, has the
 * older part summarized (or notes what is left out) and appends one `compacted` event, once per
 * step and starting point (a redelivery finds the first). Returns the log with it, or the log as
 * it was when there is nothing to cut and the request fits. Throws ContextOverflowError when even
 * the newest part cannot fit, before any model is called.
 */
export async function compactContext(
  input: CompactionInput,
  deps: CompactionDeps,
): Promise<readonly StoredEvent[]> {
  const plan = planCompaction(input);
  if (plan === undefined) return input.log;
  const counts = countsUpTo(input.log, plan);
  const startedAt = deps.clock.now();
  const replacement = await replacementOf(plan, counts, input);
  const endedAt = deps.clock.now();
  const event = compactedEvent(input, { upToSeq: plan.upToSeq, ...counts }, replacement, endedAt);
  const { session, turn } = input.state;
  const last = input.log.at(-1)?.seq ?? 0;
  const spent = replacement.spent;
  const appended = await deps.log.append({
    session,
    turn,
    key: compactionKey(input.batch, plan.previous?.upToSeq ?? 0),
    events: [{ event }],
    expectedSeq: last + 1,
    // A step that reads from here on needs nothing before the cut: the summary stands for it.
    contextStart: {
      from: plan.upToSeq + 1,
      through: last,
      ...(input.carry === undefined ? {} : { carry: input.carry() }),
    },
    ...(spent === undefined
      ? {}
      : {
          note: {
            ...stepSpend(
              { startedAt, endedAt, ...spent },
              { model: input.summaryModel, prices: deps.prices },
            ),
            purpose: 'compaction',
            batch: input.batch,
          },
        }),
  });
  // A duplicate delivery compacted first: the log holds its event, which this step then uses.
  if (appended.replayed) return [...input.log, ...(await deps.log.read(session, { afterSeq: last }))];
  return [...input.log, { session, seq: appended.firstSeq, event }];
}

/** The `compacted` event of a plan's replacement, with the request's size before and after it. */
function compactedEvent(
  input: CompactionInput,
  { upToSeq, turns, calls }: { upToSeq: number } & LeftOut,
  replacement: Replacement,
  at: number,
): WireEventOf<'compacted'> {
  const { summary, strategy, model } = replacement;
  const draft: WireEventOf<'compacted'> = {
    type: 'compacted',
    content: '',
    timestamp: at / 1000,
    payload: {
      upToSeq,
      summary,
      tokensBefore: input.tokensBefore,
      tokensAfter: 0,
      ...(model === undefined ? {} : { model }),
      strategy,
      turns,
      calls,
    },
  };
  // The messages with it: its summary and the events after `upToSeq`.
  const kept = input.log.filter((stored) => stored.seq > upToSeq);
  const after = [
    ...kept,
    { session: input.state.session, seq: (input.log.at(-1)?.seq ?? 0) + 1, event: draft },
  ];
  const tokensAfter = Math.ceil(
    estimateRequestTokens(input.system, buildMessages(after, input)) * input.ratio,
  );
  const how = model === undefined ? 'left out' : `summarized by ${model}`;
  const content = `Compacted the context: events 1–${upToSeq} ${how}, about ${input.tokensBefore} → ${tokensAfter} tokens.`;
  return { ...draft, content, payload: { ...draft.payload, tokensAfter } };
}

/**
 * The turns begun and the calls made in the log up to `upToSeq`: those the compaction in force
 * counted, and those after it (the log may start right after it, at the context's start).
 */
function countsUpTo(log: readonly StoredEvent[], { upToSeq, previous }: CompactionPlan): LeftOut {
  let turns = previous?.turns ?? 0;
  let calls = previous?.calls ?? 0;
  for (const { seq, event } of log) {
    if (seq > upToSeq) break;
    if (seq <= (previous?.upToSeq ?? 0)) continue;
    if (event.type === 'user') turns++;
    else if (event.type === 'call') calls++;
  }
  return { turns, calls };
}
