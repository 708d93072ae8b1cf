import { describe, expect, it } from 'vitest';
import { otlpHeaders, traceExporterOf } from './trace-exporter-of.js';

describe('otlpHeaders', () => {
  it("gives a secret's JSON object of header name to value", () => {
    expect(otlpHeaders('{"authorization": "Bearer t", "x-team": "ai"}', 'otlp/headers')).toEqual({
      authorization: 'Bearer t',
      'x-team': 'ai',
    });
  });

  it.each(['Bearer t', '["Bearer t"]', '{"retries": 3}'])(
    'refuses %s, naming the secret and what to store',
    (text) => {
      expect(() => otlpHeaders(text, 'otlp/headers')).toThrow(
        'The secret otlp/headers holds no OTLP headers: store a JSON object of header name to value as its plain-text value, e.g. {"authorization": "Bearer …"}.',
      );
    },
  );
});

describe('traceExporterOf', () => {
  it('makes the exporter once and reuses it', async () => {
    const exporter = traceExporterOf({ endpoint: 'http://127.0.0.1:4318', region: 'us-east-1' });
    const made = await exporter();
    expect(await exporter()).toBe(made);
    await made.shutdown();
  });
});
