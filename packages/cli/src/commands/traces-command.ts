import { UNNAMED_AGENT } from '@agentstep/protocol';
import { sessionSpans } from '@agentstep/runtime';
import { exportSpans, otlpTraceExporter, tracesConfigured } from '@agentstep/runtime/otel';
import { loadAgentFile } from '../agent-file/load-agent-file.js';
import type { CliIo } from '../io/cli-io.js';
import { readSessionLog } from '../local/read-session-log.js';
import { parseTracesArgs } from '../local/traces-args.js';
import { UsageError } from '../usage-error.js';

/**
 * `agentstep traces SESSION [--otlp URL] [--json] [--capture-content] [agent options]`: the
 * session's ended turns as OpenTelemetry GenAI spans (decision 0047), derived from its log: sent to
 * an OTLP/HTTP collector (`--otlp`, else `OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT`), or printed one
 * JSON span per line (`--json`). Exit 0 when sent or printed; 1 when the session has no events or the
 * collector refused them.
 */
export async function tracesCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseTracesArgs(args);
  if (!options.json && options.otlp === undefined && !tracesConfigured(process.env))
    throw new UsageError(
      'traces needs a collector: --otlp URL or OTEL_EXPORTER_OTLP_ENDPOINT, or --json to print the spans.',
    );
  const agent = (await loadAgentFile(options.agentFile, io.workingDir))?.agent.name ?? UNNAMED_AGENT;
  const store = await io.openStore('dynamodb-local', (text) => io.stderr(`agentstep: ${text}\n`));
  try {
    const events = await readSessionLog('traces', options.session, store.log, io);
    if (events === undefined) return 1;
    const [entries, origin] = await Promise.all([
      store.usage.list(options.session),
      store.log.origin(options.session),
    ]);
    // A fork's log begins with its parent's turns, traced with the parent.
    const log = { events, entries, ...(origin === undefined ? {} : { after: origin.seq }) };
    const spans = sessionSpans(options.session, log, { agent, captureContent: options.captureContent });
    if (options.json) {
      for (const span of spans) io.stdout(`${JSON.stringify(span)}\n`);
      return 0;
    }
    const exporter = await otlpTraceExporter({
      ...(options.otlp ? { endpoint: options.otlp } : {}),
      env: process.env,
    });
    try {
      await exportSpans(spans, exporter);
    } finally {
      await exporter.shutdown();
    }
    io.stderr(
      `agentstep traces: sent ${spans.length} spans of ${new Set(spans.map(({ traceId }) => traceId)).size} turns.\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}
