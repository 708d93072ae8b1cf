import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readUntil } from '@agentstep/runtime/testing';
import * as conventions from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batch } from '../support/harness.js';
import { OtlpReceiver } from '../support/otlp-receiver.js';
import { runCli } from '../support/run-cli.js';
import { call, IN_MEMORY_STORE, type Served, startServe } from '../support/serve-client.js';

/** The GenAI conventions' attribute names, as `@opentelemetry/semantic-conventions` spells them. */
const GEN_AI_ATTRIBUTES = new Set<string>(
  Object.entries(conventions).flatMap(([name, value]) =>
    name.startsWith('ATTR_GEN_AI_') && typeof value === 'string' ? [value] : [],
  ),
);

const PROMPT = 'Check the three secret words.';
/** Two model steps and three calls: the acceptance's turn. */
const SCRIPT = [
  batch(
    ['echo', { text: 'alpha-result' }],
    ['echo', { text: 'beta-result' }],
    ['fail', { message: 'gamma-failure' }],
  ),
  'All three checked.<end>',
];

describe('traces from the log: agentstep run and traces to a local OTLP/HTTP receiver', () => {
  const receiver = new OtlpReceiver();
  let cwd = '';
  let otlp = '';
  let session = '';
  const json = { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'word-counter' };

  beforeAll(async () => {
    otlp = await receiver.url;
    cwd = mkdtempSync(join(tmpdir(), 'agentstep-traces-'));
    writeFileSync(join(cwd, 'script.json'), JSON.stringify(SCRIPT));
    const ran = await runCli(['run', PROMPT, '--script', 'script.json'], {
      cwd,
      env: { ...json, OTEL_EXPORTER_OTLP_ENDPOINT: otlp },
    });
    expect(ran.status).toBe(0);
    session = /session (s-[0-9a-f]+)/.exec(ran.stderr)?.[1] ?? '';
  });
  afterAll(() => receiver.close());

  it('exports the turn as it ends: one invoke_agent, two chat, three execute_tool spans in one trace, parented', () => {
    const spans = receiver.jsonSpans();
    const names = spans.map(({ name }) => name.split(' ')[0]).sort();
    expect(names).toEqual(['chat', 'chat', 'execute_tool', 'execute_tool', 'execute_tool', 'invoke_agent']);
    const [agent] = spans.filter(({ name }) => name.startsWith('invoke_agent'));
    expect(new Set(spans.map(({ traceId }) => traceId))).toEqual(new Set([agent?.traceId]));
    expect(agent?.parentSpanId ?? '').toBe('');
    for (const span of spans.filter((each) => each !== agent)) expect(span.parentSpanId).toBe(agent?.spanId);
    expect(new Set(spans.map(({ service }) => service))).toEqual(new Set(['word-counter']));
    const attribute = (name: string) => agent?.attributes.find(({ key }) => key === name)?.value;
    expect(attribute('gen_ai.conversation.id')?.stringValue).toBe(session);
    expect(attribute('gen_ai.operation.name')?.stringValue).toBe('invoke_agent');
  });

  it('names every attribute as the GenAI semantic conventions do, and leaves content out', () => {
    const spans = receiver.jsonSpans();
    const keys = new Set(spans.flatMap(({ attributes }) => attributes.map(({ key }) => key)));
    expect([...keys].filter((key) => !GEN_AI_ATTRIBUTES.has(key))).toEqual([]);
    const sent = receiver.exports.map(({ body }) => body.toString('utf8')).join('\n');
    for (const text of [PROMPT, 'alpha-result', 'beta-result', 'gamma-failure', 'All three checked'])
      expect(sent).not.toContain(text);
    const failed = spans.find(({ name }) => name === 'execute_tool fail');
    expect(failed?.status).toMatchObject({ code: 2, message: 'the call failed' });
  });

  it('exports the stored session again with the same trace and span ids (traces --otlp)', async () => {
    const first = receiver
      .jsonSpans()
      .map(({ traceId, spanId }) => `${traceId}/${spanId}`)
      .sort();
    const before = receiver.exports.length;
    const { status, stderr } = await runCli(['traces', session, '--otlp', otlp], { cwd, env: json });
    expect(stderr).toMatch(/sent 6 spans of 1 turns/);
    expect(status).toBe(0);
    const again = receiver.jsonSpans().slice(first.length);
    expect(again.map(({ traceId, spanId }) => `${traceId}/${spanId}`).sort()).toEqual(first);
    expect(receiver.exports.length).toBe(before + 1);
  });

  it('sends OTLP protobuf by default, the same ids in its bytes', async () => {
    const [agent] = receiver.jsonSpans();
    const { status } = await runCli(['traces', session, '--otlp', otlp], { cwd });
    expect(status).toBe(0);
    const sent = receiver.exports.at(-1);
    expect(sent?.contentType).toBe('application/x-protobuf');
    expect(sent?.body.includes(Buffer.from(agent?.traceId ?? '', 'hex'))).toBe(true);
  });

  it('prints the spans with --json, content in them only with --capture-content', async () => {
    const plain = await runCli(['traces', session, '--json'], { cwd });
    expect(plain.stdout.trimEnd().split('\n')).toHaveLength(6);
    expect(plain.stdout).not.toContain('alpha-result');
    const captured = await runCli(['traces', session, '--json', '--capture-content'], { cwd });
    expect(captured.stdout).toContain('alpha-result');
    expect(captured.stdout).toContain(PROMPT);
  });

  it('says what it needs when no collector is named, and refuses gRPC with what to set', async () => {
    const nowhere = await runCli(['traces', session], { cwd, env: { OTEL_EXPORTER_OTLP_ENDPOINT: '' } });
    expect(nowhere.stderr).toMatch(
      /traces needs a collector: --otlp URL or OTEL_EXPORTER_OTLP_ENDPOINT, or --json/,
    );
    expect(nowhere.status).toBe(2);
    const grpc = await runCli(['traces', session, '--otlp', otlp], {
      cwd,
      env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
    });
    expect(grpc.stderr).toMatch(
      /OTLP protocol "grpc" is not one AgentStep exports with: set OTEL_EXPORTER_OTLP_PROTOCOL/,
    );
    expect(grpc.status).toBe(1);
  });
});

describe('traces from the log: agentstep serve exports each turn as it ends', () => {
  const receiver = new OtlpReceiver();
  let served: Served;
  beforeAll(async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentstep-traces-serve-'));
    writeFileSync(join(cwd, 'script.json'), JSON.stringify(SCRIPT));
    served = await startServe(['--script', 'script.json', ...IN_MEMORY_STORE], cwd, {
      OTEL_EXPORTER_OTLP_ENDPOINT: await receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
  });
  afterAll(async () => {
    expect(await served?.stop()).toBe(0);
    await receiver.close();
  });

  it('sends a turn’s six spans once it has ended, under the session of POST /sessions', async () => {
    const { body } = await call(`${served.url}/sessions`, undefined, {
      method: 'POST',
      json: { message: PROMPT },
    });
    const spans = await readUntil(
      async () => receiver.jsonSpans(),
      (received) => received.length >= 6,
    );
    expect(spans.map(({ name }) => name.split(' ')[0]).sort()).toEqual([
      'chat',
      'chat',
      'execute_tool',
      'execute_tool',
      'execute_tool',
      'invoke_agent',
    ]);
    const conversation = spans[0]?.attributes.find(({ key }) => key === 'gen_ai.conversation.id')?.value;
    expect(conversation?.stringValue).toContain(body.session);
    expect(new Set(spans.map(({ service }) => service))).toEqual(new Set(['agentstep']));
  });
});
