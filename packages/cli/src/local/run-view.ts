import type { EngineEvent, TurnRun } from '@agentstep/local';
import type { StoredEvent, WireEventOf } from '@agentstep/protocol';
import type { EventLog, Model, UsageLedger } from '@agentstep/runtime';

/** How `agentstep run` shows a turn as it runs. */
export interface RunView {
  /** Sees every state machine event, as it happens. */
  onEvent(event: EngineEvent): void;
  /** Sees each text chunk the model streams (token mode), with the step it belongs to. */
  onModelChunk(step: number, chunk: string): void;
  /** Shows the rest of the turn once it ended. */
  finish(run: TurnRun): Promise<void>;
}

/** What a view reads the session from: its log, and its usage ledger for `metric` events. */
export interface ViewSource {
  log: EventLog;
  usage: UsageLedger;
  session: string;
  /** Shown events are the ones after this seq… */
  afterSeq: number;
  /** …and the metrics after this many ledger entries. */
  afterMetrics: number;
}

/** A logged event, or a model step's metric (which has no seq: it is not part of the log, C1). */
export type SessionItem = StoredEvent | WireEventOf<'metric'>;

/** The model, with each text chunk also handed to `onChunk` as it streams. */
export function observeModel(model: Model, onChunk: (step: number, chunk: string) => void): Model {
  return {
    id: model.id,
    async *stream(request) {
      for await (const part of model.stream(request)) {
        if (typeof part === 'string') onChunk(request.step, part);
        yield part;
      }
    },
  };
}
