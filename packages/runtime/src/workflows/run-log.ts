import type { StoredEvent, WorkflowRecord, WorkflowRecordOf, WorkflowSpec } from '@agentstep/protocol';

/** A workflow record as the run's log holds it: its seq, its payload and its text (one type per kind). */
export type Logged<K extends WorkflowRecord['kind'] = WorkflowRecord['kind']> =
  K extends WorkflowRecord['kind'] ? { seq: number; record: WorkflowRecordOf<K>; content: string } : never;

/** A workflow run as its log tells it: what it runs, with which inputs, and every record in order. */
export interface RunLog {
  run: string;
  spec: WorkflowSpec;
  inputs: Readonly<Record<string, string>>;
  records: readonly Logged[];
}

/** The run's records, in log order; `undefined` when the log holds no `start` record (no such run). */
export function runLogOf(run: string, events: readonly StoredEvent[]): RunLog | undefined {
  const records: Logged[] = [];
  for (const { seq, event } of events) {
    if (event.type === 'workflow')
      records.push({ seq, record: event.payload, content: event.content ?? '' } as Logged);
  }
  const start = records.find((logged): logged is Logged<'start'> => logged.record.kind === 'start');
  if (start === undefined) return undefined;
  return { run, spec: start.record.spec, inputs: start.record.inputs, records };
}

/** The records of one kind, in log order. */
export function recordsOf<K extends WorkflowRecord['kind']>(log: RunLog, kind: K): Array<Logged<K>> {
  return log.records.filter((logged): logged is Logged<K> => logged.record.kind === kind);
}
