import type { TurnResult } from '@agentstep/protocol';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { EventLog } from '../event-log/event-log.js';
import { storedSessionOf } from '../requests/stored-session.js';
import { sessionSpans } from '../traces/session-spans.js';
import type { TurnSpanOptions } from '../traces/turn-spans.js';
import type { UsageLedger } from '../usage/usage-ledger.js';
import { exportSpans } from './export-spans.js';

/** What exporting an ended turn's spans reads, where it sends them, and what the spans say. */
export interface ExportTurnTracesDeps extends TurnSpanOptions {
  log: Pick<EventLog, 'read'>;
  usage: Pick<UsageLedger, 'list'>;
  /** The exporter, made when first asked for (a secret read, a credential chain), then reused. */
  exporter: () => Promise<SpanExporter>;
}

/**
 * What a host does when a turn's end is announced, with traces configured (decision 0047): derives
 * that turn's spans from its session's log and usage ledger (under its tenant's tag when it has
 * one) and sends them, after the turn, never on a step's path. A turn with no end in the log sends
 * nothing; an export that fails throws, naming the turn, for the host to retry.
 */
export async function exportTurnTraces(result: TurnResult, deps: ExportTurnTracesDeps): Promise<void> {
  const { turn } = result;
  const stored = storedSessionOf(result);
  const [events, entries] = await Promise.all([deps.log.read(stored), deps.usage.list(stored)]);
  const spans = sessionSpans(
    stored,
    { events, entries },
    { agent: deps.agent, captureContent: deps.captureContent ?? false, turns: [turn] },
  );
  if (spans.length === 0) return;
  try {
    await exportSpans(spans, await deps.exporter());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The traces of turn ${turn} (session ${stored}) were not exported: ${reason} The log keeps them: \`agentstep traces ${stored} --otlp URL\` sends them again.`,
      { cause: error },
    );
  }
}
