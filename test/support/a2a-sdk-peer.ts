import { Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor } from '@a2a-js/sdk/server';
import { startA2aTestServer } from '@agentstep/runtime/testing';

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
 * An `@a2a-js/sdk` server (`startA2aTestServer`: its own request handler and JSON-RPC binding,
 * streaming) whose every task completes with the artifact `answer`, `answer(TEXT)`, but
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
  const { url, close } = await startA2aTestServer(executor);
  return { url, messages, cancelled, close };
}
