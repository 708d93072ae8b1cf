import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { describe, expect, it } from 'vitest';
import type { LogSpan } from '../traces/log-span.js';
import { readableSpans } from './readable-spans.js';

const TRACE = 'abca789f4c9f92d15fdaf1f371f3c13f';
const LINKED_TRACE = '0123456789abcdef0123456789abcdef';

const spans: LogSpan[] = [
  {
    traceId: TRACE,
    spanId: '9a1bf3fc1f5d035e',
    name: 'invoke_agent checker',
    kind: 'internal',
    startMs: 1_795_956_923_284,
    endMs: 1_795_956_925_999,
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.usage.input_tokens': 120 },
    events: [{ name: 'compaction', timeMs: 1_795_956_924_000 }],
    links: [],
    status: { code: 'error', message: 'ModelError' },
  },
  {
    traceId: TRACE,
    spanId: '83ca71338033b1f6',
    parentSpanId: '9a1bf3fc1f5d035e',
    name: 'execute_tool spawn_agent',
    kind: 'client',
    startMs: 1_795_956_923_500,
    endMs: 1_795_956_924_750,
    attributes: { 'gen_ai.tool.name': 'spawn_agent', 'gen_ai.response.finish_reasons': ['tool_call'] },
    events: [],
    links: [{ traceId: LINKED_TRACE, spanId: 'fedcba9876543210' }],
    status: { code: 'unset' },
  },
];

// What the OTLP exporters send is what the SDK's own serializer makes of these spans.
describe('readableSpans, as the OpenTelemetry SDK serializes them (OTLP/JSON)', () => {
  const resource = resourceFromAttributes({ 'service.name': 'checker' });
  const request = JSON.parse(
    new TextDecoder().decode(JsonTraceSerializer.serializeRequest(readableSpans(spans, resource))),
  );
  const sent = request.resourceSpans[0].scopeSpans[0].spans;

  it('keeps ids, parents and links as hex, and times to the nanosecond', () => {
    expect(sent.map(({ traceId, spanId }: { traceId: string; spanId: string }) => [traceId, spanId])).toEqual(
      [
        [TRACE, '9a1bf3fc1f5d035e'],
        [TRACE, '83ca71338033b1f6'],
      ],
    );
    expect(sent[0].parentSpanId ?? '').toBe('');
    expect(sent[1].parentSpanId).toBe('9a1bf3fc1f5d035e');
    expect(sent[1].links).toMatchObject([{ traceId: LINKED_TRACE, spanId: 'fedcba9876543210' }]);
    expect(String(sent[0].startTimeUnixNano)).toBe('1795956923284000000');
    expect(String(sent[0].endTimeUnixNano)).toBe('1795956925999000000');
    expect(String(sent[0].events[0].timeUnixNano)).toBe('1795956924000000000');
  });

  it('carries kinds, statuses, attributes and the service', () => {
    expect(sent.map(({ kind }: { kind: number }) => kind)).toEqual([1, 3]);
    expect(sent[0].status).toEqual({ code: 2, message: 'ModelError' });
    expect(sent[1].status).toEqual({ code: 0 });
    expect(sent[1].attributes).toContainEqual({
      key: 'gen_ai.response.finish_reasons',
      value: { arrayValue: { values: [{ stringValue: 'tool_call' }] } },
    });
    expect(request.resourceSpans[0].resource.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'checker' },
    });
  });
});
