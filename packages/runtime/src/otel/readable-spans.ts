import { type HrTime, type SpanContext, SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { LogSpan } from '../traces/log-span.js';

/** Who made the spans, as exporters name the instrumentation. */
const SCOPE = { name: '@agentstep/runtime' };

/** Milliseconds since the epoch as OpenTelemetry's `[seconds, nanoseconds]`, to the millisecond. */
function hrTime(ms: number): HrTime {
  const whole = Math.round(ms);
  const seconds = Math.floor(whole / 1000);
  return [seconds, (whole - seconds * 1000) * 1e6];
}

function contextOf(traceId: string, spanId: string): SpanContext {
  return { traceId, spanId, traceFlags: TraceFlags.SAMPLED };
}

/** Spans derived from a log, as the OpenTelemetry SDK's exporters take finished spans. */
export function readableSpans(spans: readonly LogSpan[], resource: Resource): ReadableSpan[] {
  return spans.map((span) => ({
    name: span.name,
    kind: span.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => contextOf(span.traceId, span.spanId),
    ...(span.parentSpanId === undefined
      ? {}
      : { parentSpanContext: contextOf(span.traceId, span.parentSpanId) }),
    startTime: hrTime(span.startMs),
    endTime: hrTime(span.endMs),
    duration: hrTime(span.endMs - span.startMs),
    status:
      span.status.code === 'error'
        ? { code: SpanStatusCode.ERROR, ...(span.status.message ? { message: span.status.message } : {}) }
        : { code: SpanStatusCode.UNSET },
    attributes: span.attributes,
    links: span.links.map(({ traceId, spanId }) => ({ context: contextOf(traceId, spanId) })),
    events: span.events.map(({ name, timeMs, attributes }) => ({
      name,
      time: hrTime(timeMs),
      ...(attributes ? { attributes } : {}),
    })),
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  }));
}
