import type { StoredEvent, WireEventOf } from '@agentstep/protocol';
import { type EventLog, eventLogWith, modelStepKey } from '@agentstep/runtime';

/** What every compaction of a {@link compactingLog} says in place of the events before it. */
export const COMPACTION_SUMMARY = 'The user asked for a check; the tools ran.';

/**
 * `log` as a model step that compacts leaves it (decision 0035): just before the events of each
 * turn's model step `step`, in an append of its own, one `compacted` event standing for all the log
 * held before it. It lands once the step's model has answered, after any text the step streamed:
 * the later of the two places a compaction may take among a running turn's events.
 */
export function compactingLog(log: EventLog, step = 2): EventLog {
  return eventLogWith(log, {
    append: async (request) => {
      if (request.key !== modelStepKey(`${request.turn}.${step}`)) return log.append(request);
      const { session, turn, key, expectedSeq: _, ...rest } = request;
      const event = compactedEvent(await log.read(session));
      await log.append({ session, turn, key: `${key}/compaction`, events: [{ event }] });
      return log.append({ session, turn, key, ...rest });
    },
  });
}

/** A summary of all of `events` by the scripted model, with made-up token figures. */
function compactedEvent(events: readonly StoredEvent[]): WireEventOf<'compacted'> {
  const upToSeq = events.at(-1)?.seq ?? 0;
  const count = (type: string) => events.filter(({ event }) => event.type === type).length;
  return {
    type: 'compacted',
    content: `Compacted the context: events 1–${upToSeq} summarized by scripted.`,
    timestamp: Date.now() / 1000,
    payload: {
      upToSeq,
      summary: COMPACTION_SUMMARY,
      tokensBefore: 7950,
      tokensAfter: 1830,
      model: 'scripted',
      strategy: 'summarize',
      turns: count('user'),
      calls: count('call'),
    },
  };
}
