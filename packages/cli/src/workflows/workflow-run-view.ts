import type { WorkflowRecord } from '@agentstep/protocol';
import { type EventLog, eventLogWith } from '@agentstep/runtime';

/** How long a goal's output may be in its one-line summary. */
const SUMMARY_CHARS = 100;

/**
 * The live view of a workflow run: one line on stderr for each of its records as it is appended
 * (a goal's run starting, its output, a verdict, a gate waiting and how to answer it, the end).
 * Wraps the log the engine appends through, so it shows exactly what the log holds.
 */
export function watchWorkflow(run: string, write: (line: string) => void): (log: EventLog) => EventLog {
  return (log) =>
    eventLogWith(log, {
      append: async (request) => {
        const appended = await log.append(request);
        if (request.session !== run || appended.replayed) return appended;
        for (const { event } of request.events) {
          if (event.type === 'workflow')
            write(`${describeRecord(run, event.payload, event.content ?? '')}\n`);
        }
        return appended;
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
