import type { StoredEvent, WorkflowRecord } from '@agentstep/protocol';
import { type EventLog, eventLogWith } from '@agentstep/runtime';

/** How long a goal's output may be in its one-line summary. */
const SUMMARY_CHARS = 100;

/**
 * The live view of a workflow run: one line on stderr for each of its records (a goal's run
 * starting, its output, a verdict, a gate waiting and how to answer it, a person's answer, the
 * end), each once, in log order. Wraps the log the engine works through: records this process
 * appends are shown as they land, and records another process appended (a gate answered from
 * another shell) as soon as the run reads its log again.
 */
export function watchWorkflow(run: string, write: (line: string) => void): (log: EventLog) => EventLog {
  let shown = 0;
  const show = (events: ReadonlyArray<Pick<StoredEvent, 'seq' | 'event'>>) => {
    for (const { seq, event } of events) {
      if (seq <= shown) continue;
      shown = seq;
      if (event.type === 'workflow') write(`${describeRecord(run, event.payload, event.content ?? '')}\n`);
    }
  };
  return (log) =>
    eventLogWith(log, {
      append: async (request) => {
        const appended = await log.append(request);
        if (request.session === run && !appended.replayed && appended.firstSeq === shown + 1)
          show(request.events.map(({ event }, index) => ({ seq: appended.firstSeq + index, event })));
        return appended;
      },
      read: async (session, options) => {
        const events = await log.read(session, options);
        if (session === run) show(events);
        return events;
      },
    });
}

/** One record as a line for people. */
export function describeRecord(run: string, record: WorkflowRecord, content: string): string {
  switch (record.kind) {
    case 'start':
      return `workflow ${record.spec.name}: run ${run}`;
    case 'run':
      return `  ${label(record)} ${record.phase}${record.n ? ` ${record.n}` : ''} … (session ${record.session})`;
    case 'output':
      return `  ${label(record)} ${record.phase}${record.n ? ` ${record.n}` : ''} ${record.status}: ${summary(content)}`;
    case 'goal':
      return `✓ goal ${label(record)}${record.note ? ` (${record.note})` : ''}: ${summary(content)}`;
    case 'verdict':
      return `  supervisor on ${record.goal}: ${record.verdict}${content ? ` ${summary(content)}` : ''}`;
    case 'correction':
      return `  correction (${record.source}) for ${record.goal}: ${summary(content)}`;
    case 'gate':
      return record.status === 'waiting'
        ? `? goal ${record.goal} waits for a person: agentstep workflow gate ${run} ${record.gate} --approve | --correct TEXT | --abort`
        : `  gate ${record.gate} ${record.status}${record.by ? ` by ${record.by}` : ''}`;
    case 'end':
      return `workflow ${record.status}: ${content}`;
  }
}

function label(record: { goal: string; agent?: string | undefined }): string {
  return record.agent === undefined ? record.goal : `${record.goal}[${record.agent}]`;
}

function summary(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}
