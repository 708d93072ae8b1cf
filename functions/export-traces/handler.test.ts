import { createServer, type Server } from 'node:http';
import type { TurnResult } from '@agentstep/protocol';
import {
  endTurn,
  inMemoryStores,
  modelStep,
  ScriptedModel,
  startTurn,
  storedSession,
  submitTurn,
} from '@agentstep/runtime';
import { otlpTraceExporter } from '@agentstep/runtime/otel';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandler } from './handler.js';

const clock = { now: () => 1_700_000_000_000 };
const context = { functionName: 'export-traces', awsRequestId: 'r' } as Context;

/** A span as OTLP/JSON carries it: its name and attributes, with the service that sent it. */
interface ReceivedSpan {
  name: string;
  traceId: string;
  service: string;
  attributes: Record<string, unknown>;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((settle) => server.close(settle))));
});

/** A local OTLP/HTTP collector answering `status`: the spans of every OTLP/JSON export it got. */
async function collector(status = 200): Promise<{ url: string; spans: ReceivedSpan[] }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(Buffer.from(chunk));
    if (request.url === '/v1/traces' && status === 200) spans.push(...spansOf(Buffer.concat(chunks)));
    response.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{}' : '');
  });
  servers.push(server);
  await new Promise<void>((settle) => server.listen(0, '127.0.0.1', settle));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, spans };
}

/** The spans of an OTLP/JSON export, their attributes as plain values. */
function spansOf(body: Buffer): ReceivedSpan[] {
  type Attribute = { key: string; value: Record<string, unknown> };
  const { resourceSpans } = JSON.parse(body.toString('utf8')) as {
    resourceSpans: Array<{
      resource: { attributes: Attribute[] };
      scopeSpans: Array<{ spans: Array<{ name: string; traceId: string; attributes: Attribute[] }> }>;
    }>;
  };
  const plain = (attributes: Attribute[]) =>
    Object.fromEntries(attributes.map(({ key, value }) => [key, Object.values(value)[0]]));
  return resourceSpans.flatMap(({ resource, scopeSpans }) =>
    scopeSpans.flatMap(({ spans }) =>
      spans.map(({ name, traceId, attributes }) => ({
        name,
        traceId,
        service: String(plain(resource.attributes)['service.name']),
        attributes: plain(attributes),
      })),
    ),
  );
}

/** A turn of `session` that asked, took one model step that answered, and ended (`ended`: false leaves it running). */
async function turnOf(
  session: string,
  turn: string,
  stores: ReturnType<typeof inMemoryStores>,
  ended = true,
) {
  const model = new ScriptedModel(['Paris.<end>']);
  const deps = { ...stores, clock, model, tools: [], targetOf: () => 'tools', version: 'v1' };
  await submitTurn({ session, turn, prompt: 'Where is the Louvre?' }, deps);
  await modelStep(await startTurn({ session, turn, maxSteps: 5 }, deps), deps);
  if (ended) await endTurn({ session, turn, status: 'done', message: 'The turn finished.' }, deps);
}

/** The event EventBridge delivers when the loop announces a turn's end. */
function turnEnded(detail: Partial<TurnResult> & Pick<TurnResult, 'session' | 'turn'>) {
  return {
    version: '0',
    id: 'e-1',
    'detail-type': 'Agent Turn Completed',
    source: 'agentstep',
    account: '123456789012',
    time: '2026-11-23T10:00:00Z',
    region: 'us-east-1',
    resources: [],
    detail: {
      status: 'done',
      answer: 'Paris.',
      usage: { input: 10, output: 5 },
      message: 'Done.',
      ...detail,
    },
  };
}

/** The handler on in-memory stores, exporting over OTLP/JSON to `url`. */
function handlerOn(stores: ReturnType<typeof inMemoryStores>, url: string, captureContent = false) {
  const exporter = () =>
    otlpTraceExporter({ endpoint: url, env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } });
  return createHandler({ ...stores, exporter, agent: 'concierge', captureContent });
}

describe('ExportTraces (EventBridge target)', () => {
  it("sends the ended turn's spans to the collector: its invoke_agent and chat, named for the agent, no content by default", async () => {
    const stores = inMemoryStores();
    await turnOf('s', 't-1', stores);
    await turnOf('s', 't-2', stores);
    const { url, spans } = await collector();
    await handlerOn(stores, url)(turnEnded({ session: 's', turn: 't-2' }), context);
    expect(spans.map(({ name }) => name)).toEqual(['invoke_agent concierge', 'chat scripted']);
    expect(new Set(spans.map(({ traceId }) => traceId)).size).toBe(1);
    expect(spans[0]).toMatchObject({
      service: 'agentstep',
      attributes: {
        'gen_ai.agent.name': 'concierge',
        'gen_ai.agent.version': 'v1',
        'gen_ai.conversation.id': 's',
      },
    });
    expect(JSON.stringify(spans)).not.toContain('Louvre');
  });

  it('puts prompts and answers in the spans with captureContent', async () => {
    const stores = inMemoryStores();
    await turnOf('s', 't-1', stores);
    const { url, spans } = await collector();
    await handlerOn(stores, url, true)(turnEnded({ session: 's', turn: 't-1' }), context);
    expect(JSON.stringify(spans[0]?.attributes['gen_ai.input.messages'])).toContain('Louvre');
  });

  it("reads a tenant's turn from the session stored under the tenant's tag", async () => {
    const stores = inMemoryStores();
    await turnOf(storedSession('acme', 's'), 't-1', stores);
    const { url, spans } = await collector();
    const handler = handlerOn(stores, url);
    await handler(turnEnded({ session: 's', turn: 't-1' }), context);
    expect(spans).toEqual([]);
    await handler(turnEnded({ session: 's', turn: 't-1', tenant: 'acme' }), context);
    expect(spans[0]?.attributes['gen_ai.conversation.id']).toBe(storedSession('acme', 's'));
  });

  it('sends nothing for a turn whose end is not in the log', async () => {
    const stores = inMemoryStores();
    await turnOf('s', 't-1', stores, false);
    const { url, spans } = await collector();
    await handlerOn(stores, url)(turnEnded({ session: 's', turn: 't-1' }), context);
    expect(spans).toEqual([]);
  });

  it('throws when the collector refuses, naming the turn and how to send it again, for Lambda to retry', async () => {
    const stores = inMemoryStores();
    await turnOf('s', 't-1', stores);
    const { url } = await collector(400);
    await expect(handlerOn(stores, url)(turnEnded({ session: 's', turn: 't-1' }), context)).rejects.toThrow(
      /^The traces of turn t-1 \(session s\) were not exported: .+ `agentstep traces s --otlp URL` sends them again\.$/,
    );
  });

  it('refuses an event whose detail is no turn result', async () => {
    const { url } = await collector();
    const event = { ...turnEnded({ session: 's', turn: 't-1' }), detail: { run: 'r-1' } };
    await expect(handlerOn(inMemoryStores(), url)(event, context)).rejects.toThrow();
  });
});
