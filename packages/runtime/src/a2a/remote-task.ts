import {
  type Artifact,
  type Message,
  type Part,
  type StreamResponse,
  type Task,
  TaskState,
  type TaskStatus,
} from '@a2a-js/sdk';

/** The states after which a task goes no further unless someone answers it. */
const SETTLED: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

/**
 * What a remote agent said of the task a message started, folded from its stream's events (or
 * from a task read whole): its id and context once known, its status, its artifacts (chunks
 * appended), or the message it answered with at once, starting no task.
 */
export class RemoteTask {
  id: string | undefined;
  context: string | undefined;
  status: TaskStatus | undefined;
  /** The remote agent's answer when it started no task. */
  reply: Message | undefined;
  readonly #artifacts = new Map<string, Artifact>();

  /** Folds one event of the stream in. */
  see({ payload }: StreamResponse): void {
    switch (payload?.$case) {
      case 'task':
        this.seeTask(payload.value);
        return;
      case 'message':
        this.reply = payload.value;
        this.context = payload.value.contextId || this.context;
        return;
      case 'statusUpdate':
        this.#ids(payload.value.taskId, payload.value.contextId);
        this.status = payload.value.status ?? this.status;
        return;
      case 'artifactUpdate': {
        const { artifact, append } = payload.value;
        this.#ids(payload.value.taskId, payload.value.contextId);
        if (artifact !== undefined) this.#artifact(artifact, append);
        return;
      }
    }
  }

  /** Takes a task as it stands: its status and artifacts replace what was seen. */
  seeTask(task: Task): void {
    this.#ids(task.id, task.contextId);
    this.status = task.status ?? this.status;
    this.#artifacts.clear();
    for (const artifact of task.artifacts) this.#artifacts.set(artifact.artifactId, artifact);
  }

  /** It answered at once, or its task ended or waits for someone: nothing more comes unasked. */
  get settled(): boolean {
    return this.reply !== undefined || (this.status !== undefined && SETTLED.has(this.status.state));
  }

  /** Its state's A2A name (`TASK_STATE_WORKING`, …); `TASK_STATE_UNSPECIFIED` before any status. */
  get state(): string {
    return TaskState[this.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED] ?? 'TASK_STATE_UNRECOGNIZED';
  }

  /** Whether it completed, or answered at once. */
  get completed(): boolean {
    return this.reply !== undefined || this.status?.state === TaskState.TASK_STATE_COMPLETED;
  }

  /**
   * Its answer as text: the artifact named `answer` (an AgentStep agent's), else every artifact's
   * text, else what its status message or its reply says.
   */
  get answer(): string {
    const artifacts = [...this.#artifacts.values()];
    const chosen = artifacts.filter(({ name }) => name === 'answer');
    const text = (chosen.length > 0 ? chosen : artifacts).map(({ parts }) => partsText(parts)).join('\n');
    return text || this.said;
  }

  /** What its status message (or its reply) says, as text; empty when it said nothing. */
  get said(): string {
    return partsText((this.reply ?? this.status?.message)?.parts ?? []);
  }

  #ids(id: string, context: string): void {
    this.id = id || this.id;
    this.context = context || this.context;
  }

  #artifact(artifact: Artifact, append: boolean): void {
    const earlier = this.#artifacts.get(artifact.artifactId);
    const parts = append && earlier ? [...earlier.parts, ...artifact.parts] : artifact.parts;
    this.#artifacts.set(artifact.artifactId, { ...artifact, parts });
  }
}

/** Parts as text, one a line: text as written, data as JSON, files by URL, name or size. */
function partsText(parts: readonly Part[]): string {
  return parts.map(partText).join('\n');
}

function partText({ content, mediaType, filename }: Part): string {
  switch (content?.$case) {
    case 'text':
      return content.value;
    case 'data':
      return JSON.stringify(content.value);
    case 'url':
      return `[file ${content.value}]`;
    case 'raw':
      return `[file ${filename || mediaType || 'of bytes'}, ${content.value.byteLength} bytes]`;
    default:
      return '';
  }
}
