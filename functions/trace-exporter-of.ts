import { TRACES_TO_CLOUDWATCH } from '@agentstep/protocol';
import { cloudWatchTraceExporter } from '@agentstep/runtime/otel';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import * as z from 'zod';
import { secretText } from './secret-text.js';

/** Where the deployment's traces go, as the construct's `traces` prop says. */
export interface TraceExportSettings {
  /** An OTLP/HTTP collector's address (`/v1/traces` is added), or `cloudwatch`. */
  endpoint: string;
  /** The secret holding the collector's headers (a JSON object), by name or ARN. @default none */
  headersSecret?: string;
  /** The function's own region, whose CloudWatch endpoint takes `cloudwatch`'s spans. */
  region: string;
}

/**
 * The exporter the deployment names, made when first asked for (its secret read once per cold start)
 * and then reused; one that could not be made (a secret not yet created) is made again next time.
 * `cloudwatch`: CloudWatch's OTLP traces endpoint, signed with SigV4; otherwise the OpenTelemetry
 * SDK's OTLP/HTTP protobuf exporter, with the secret's headers.
 */
export function traceExporterOf(settings: TraceExportSettings): () => Promise<SpanExporter> {
  let made: Promise<SpanExporter> | undefined;
  return () => {
    made ??= exporterOf(settings).catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}

async function exporterOf({ endpoint, headersSecret, region }: TraceExportSettings): Promise<SpanExporter> {
  if (endpoint === TRACES_TO_CLOUDWATCH) return cloudWatchTraceExporter({ region });
  const headers =
    headersSecret === undefined
      ? {}
      : otlpHeaders(await secretText(headersSecret, 'OTLP headers'), headersSecret);
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url: `${endpoint}/v1/traces`, headers });
}

const headersSchema = z.record(z.string().min(1), z.string());

/** The headers a secret's text holds: a JSON object of header name → value, else an error saying so. */
export function otlpHeaders(text: string, secretId: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const headers = headersSchema.safeParse(parsed);
  if (headers.success) return headers.data;
  throw new Error(
    `The secret ${secretId} holds no OTLP headers: store a JSON object of header name to value as its plain-text value, e.g. {"authorization": "Bearer …"}.`,
  );
}
