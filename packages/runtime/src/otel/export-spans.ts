import { ExportResultCode } from '@opentelemetry/core';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { LogSpan } from '../traces/log-span.js';
import { readableSpans } from './readable-spans.js';

/** The service spans come from when `OTEL_SERVICE_NAME` (or `OTEL_RESOURCE_ATTRIBUTES`) names none. */
const DEFAULT_SERVICE_NAME = 'agentstep';

/**
 * Sends spans derived from a log through `exporter`, from the service `OTEL_SERVICE_NAME` names
 * (default `agentstep`) with `OTEL_RESOURCE_ATTRIBUTES`, as the SDK's env detector reads them, and
 * waits until the exporter has sent them; throws what failed it.
 */
export async function exportSpans(spans: readonly LogSpan[], exporter: SpanExporter): Promise<void> {
  if (spans.length === 0) return;
  const fromEnv = detectResources({ detectors: [envDetector] });
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: DEFAULT_SERVICE_NAME }).merge(fromEnv);
  const result = await new Promise<{ code: ExportResultCode; error?: Error }>((settle) =>
    exporter.export(readableSpans(spans, resource), settle),
  );
  if (result.code !== ExportResultCode.SUCCESS)
    throw new Error(
      `The collector refused or missed ${spans.length} spans: ${result.error?.message ?? 'no reason given'}`,
      { cause: result.error },
    );
}
