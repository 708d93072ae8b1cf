import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AgentCard,
  formatSSEEvent,
  SSE_HEADERS,
  Task,
  TaskArtifactUpdateEvent,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
} from '@a2a-js/sdk/server';

/** A remote agent written with `@a2a-js/sdk`'s server, and the messages it got. */
export interface SdkPeer {
  /** Its base URL: its card is at `/.well-known/agent-card.json`. */
  url: string;
  /** Each message it got: its id and its text. */
  messages: Array<{ messageId: string; text: string }>;
  /** Resolves with the id of the first task it is asked to cancel. */
  cancelled: Promise<string>;
  close(): Promise<void>;
}

/**
 * An `@a2a-js/sdk` server (its `DefaultRequestHandler` and JSON-RPC binding, mounted on `node:http`
 * on port 0, streaming) whose every task completes with the artifact `answer`, `answer(TEXT)`, but
 * a task whose text `holds` works until it is cancelled.
 */
export async function startSdkPeer(
  answer: (text: string) => string,
  holds: (text: string) => boolean = () => false,
): Promise<SdkPeer> {
  const messages: SdkPeer['messages'] = [];
  let cancel: (taskId: string) => void = () => {};
  const cancelled = new Promise<string>((settle) => {
    cancel = settle;
  });
  const executor: AgentExecutor = {
    async execute({ taskId, contextId, userMessage }, bus) {
      const part = userMessage.parts[0]?.content;
      const text = part?.$case === 'text' ? part.value : '';
      messages.push({ messageId: userMessage.messageId, text });
      bus.publish(
        AgentEvent.task(Task.fromJSON({ id: taskId, contextId, status: { state: 'TASK_STATE_WORKING' } })),
      );
      // A held task's execution lasts until it is cancelled (the handler then asks the executor).
      if (holds(text)) return void (await cancelled);
      const artifact = { artifactId: 'reply', name: 'answer', parts: [{ text: answer(text) }] };
      bus.publish(
        AgentEvent.artifactUpdate(TaskArtifactUpdateEvent.fromJSON({ taskId, contextId, artifact })),
      );
      const status = { state: 'TASK_STATE_COMPLETED' };
      bus.publish(AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON({ taskId, contextId, status })));
    },
    async cancelTask(taskId, bus) {
      cancel(taskId);
      const status = { state: 'TASK_STATE_CANCELED' };
      bus.publish(AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON({ taskId, contextId: '', status })));
    },
  };
  let rpc: JsonRpcTransportHandler | undefined;
  let card: unknown;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.url === '/.well-known/agent-card.json') return void response.end(JSON.stringify(card));
    const context = new ServerCallContext({ requestedVersion: request.headers['a2a-version'] as string });
    const out = await rpc?.handle(Buffer.concat(chunks).toString(), context);
    if (out === undefined || !(Symbol.asyncIterator in out))
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    response.writeHead(200, SSE_HEADERS);
    for await (const event of out) response.write(formatSSEEvent(event));
    response.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  card = {
    name: 'SDK peer',
    description: 'An agent written with @a2a-js/sdk.',
    version: '1.0.0',
    supportedInterfaces: [{ url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'answer', name: 'Answer', description: 'Answers.', tags: ['answer'] }],
  };
  rpc = new JsonRpcTransportHandler(
    new DefaultRequestHandler(AgentCard.fromJSON(card), new InMemoryTaskStore(), executor),
  );
  const close = async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  };
  return { url, messages, cancelled, close };
}
