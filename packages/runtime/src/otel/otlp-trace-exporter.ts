import type { SpanExporter } from '@opentelemetry/sdk-trace';

/** The OTLP protocols an exporter here speaks, as `OTEL_EXPORTER_OTLP_PROTOCOL` names them. */
const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** Where traces go and how, as the OpenTelemetry environment variables (or their flags) say. */
export interface TraceExportConfig {
  /** The collector's OTLP/HTTP address, as `OTEL_EXPORTER_OTLP_ENDPOINT` (`/v1/traces` is added). @default the environment's */
  endpoint?: string;
  /**
   * Where the protocol is read from. The exporter itself reads the endpoint, headers and timeout
   * from `process.env`, as the OpenTelemetry SDK always does. @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /** How long one export may take, unless `OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT` says. @default the SDK's, 10 s */
  timeoutMs?: number;
}

/**
 * Whether the environment names a collector for traces (`OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT`) and
 * does not turn them off (`OTEL_SDK_DISABLED=true`, `OTEL_TRACES_EXPORTER=none`).
 */
export function tracesConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

/** A collector's address with the traces path OTLP/HTTP adds to `OTEL_EXPORTER_OTLP_ENDPOINT`. */
export function tracesUrl(endpoint: string): string {
  return new URL('v1/traces', endpoint.endsWith('/') ? endpoint : `${endpoint}/`).href;
}

/**
 * The OpenTelemetry SDK's own OTLP/HTTP trace exporter, configured the standard way: endpoint,
 * headers and timeout from `OTEL_EXPORTER_OTLP_[TRACES_]*` (read by the exporter), protocol from
 * `OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL` (`http/protobuf` by default, or `http/json`), or the
 * collector's address given here. gRPC is refused with what to set instead.
 */
export async function otlpTraceExporter({
  endpoint,
  env = process.env,
  timeoutMs,
}: TraceExportConfig = {}): Promise<SpanExporter> {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || PROTOCOLS[0];
  if (!(PROTOCOLS as readonly string[]).includes(protocol))
    throw new Error(
      `OTLP protocol "${protocol}" is not one AgentStep exports with: set OTEL_EXPORTER_OTLP_PROTOCOL to ${PROTOCOLS.join(' or ')} (an OpenTelemetry Collector takes both on port 4318).`,
    );
  const timeoutSet = Boolean(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT || env.OTEL_EXPORTER_OTLP_TIMEOUT);
  const config = {
    ...(endpoint === undefined ? {} : { url: tracesUrl(endpoint) }),
    ...(timeoutMs === undefined || timeoutSet ? {} : { timeoutMillis: timeoutMs }),
  };
  const { OTLPTraceExporter } =
    protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter(config);
}
