// Traces derived from the log, exported with the OpenTelemetry SDK's OTLP exporters (decision 0047):
// apart from the root so that only what exports traces loads the SDK.

export { type CloudWatchTraceConfig, cloudWatchTraceExporter } from './otel/cloud-watch-trace-exporter.js';
export { exportSpans } from './otel/export-spans.js';
export { type ExportTurnTracesDeps, exportTurnTraces } from './otel/export-turn-traces.js';
export { otlpTraceExporter, type TraceExportConfig, tracesConfigured } from './otel/otlp-trace-exporter.js';
export { readableSpans } from './otel/readable-spans.js';
