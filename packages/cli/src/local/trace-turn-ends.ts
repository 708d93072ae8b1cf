import type { LocalEventBus } from '@agentstep/local';
import { ENV_NAMES, TURN_EVENT_SOURCE, turnResultSchema } from '@agentstep/protocol';
import type { EventLog, UsageLedger } from '@agentstep/runtime';
import { exportTurnTraces, otlpTraceExporter, tracesConfigured } from '@agentstep/runtime/otel';

/** How long one turn's export may take before `run` gives up on it (unless OTEL_EXPORTER_OTLP_TIMEOUT says). */
const EXPORT_TIMEOUT_MS = 5_000;

/** What ends the tracing of turn ends: waits for the exports under way, then flushes the exporter. */
export interface TurnTracing {
  stop(): Promise<void>;
}

/**
 * With `OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT` set (decision 0047), exports each turn's spans once the
 * engine's bus announces its end, as the deployed export-traces function does: read from the log
 * and the ledger after the turn, never on a step's path, content only with
 * `AGENTSTEP_TRACES_CAPTURE_CONTENT=true`; `notice` hears a turn whose spans could not be sent.
 * Without it, does nothing.
 */
export function traceTurnEnds(
  bus: LocalEventBus,
  stores: { log: EventLog; usage: UsageLedger },
  agent: () => string,
  notice: (text: string) => void,
): TurnTracing {
  if (!tracesConfigured(process.env)) return { stop: async () => {} };
  const exporter = otlpTraceExporter({ timeoutMs: EXPORT_TIMEOUT_MS });
  // A configuration the exporter refuses is said by each turn's notice, not as an unhandled rejection.
  exporter.catch(() => undefined);
  const captureContent = process.env[ENV_NAMES.tracesCaptureContent] === 'true';
  const pending = new Set<Promise<void>>();
  const unlisten = bus.listen((event) => {
    // The bus also announces workflow runs' ends: only a turn's result is a turn to trace.
    const result = event.source === TURN_EVENT_SOURCE ? turnResultSchema.safeParse(event.detail) : undefined;
    if (!result?.success) return;
    const deps = { ...stores, agent: agent(), captureContent, exporter: () => exporter };
    const exported = exportTurnTraces(result.data, deps)
      .catch((error: unknown) => notice(error instanceof Error ? error.message : String(error)))
      .finally(() => pending.delete(exported));
    pending.add(exported);
  });
  return {
    stop: async () => {
      unlisten();
      await Promise.all(pending);
      await (await exporter.catch(() => undefined))?.shutdown();
    },
  };
}
