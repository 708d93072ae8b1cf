import { StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type A2aBinding, a2aClientOf, userMessage } from '../support/a2a-client.js';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch, SLEEPING_TURN } from '../support/harness.js';
import { serveScriptInProcess } from '../support/in-process.js';
import type { Served } from '../support/serve-client.js';

const ANSWER = 'The answer is 42.';

/** Each event of a stream in its wire form. */
async function wire(stream: AsyncIterable<StreamResponse>): Promise<unknown[]> {
  const events = [];
  for await (const event of stream) events.push(StreamResponse.toJSON(event));
  return events;
}

const stateOf = (task: Task) => TaskState[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED];

/** What a task waiting for a person asks, as its status message's data part says it. */
const waitingFor = (text: string) => ({
  state: 'TASK_STATE_INPUT_REQUIRED',
  message: {
    role: 'ROLE_AGENT',
    parts: [
      { text: expect.stringContaining('waits for approval') },
      { data: { approvals: [{ approval: expect.any(String), tool: 'echo', args: { text } }] } },
    ],
  },
});

describe.skipIf(dynamoEndpoint === '')('A2A 1.0 on serve: @a2a-js/sdk’s own client', () => {
  let answering: Served;
  let approving: Served;
  let sleeping: Served;
  beforeAll(async () => {
    [answering, approving, sleeping] = await Promise.all([
      serveScriptInProcess('a2a-answer', [`${ANSWER}<end>`]),
      serveScriptInProcess(
        'a2a-approval',
        [batch(['echo', { text: 'one' }]), batch(['echo', { text: 'two' }]), 'Echoed twice.<end>'],
        ['--approve', 'echo'],
      ),
      serveScriptInProcess('a2a-sleep', SLEEPING_TURN),
    ]);
  });
  afterAll(async () => {
    for (const served of [answering, approving, sleeping]) expect(await served?.stop()).toBe(0);
  });

  for (const binding of ['JSONRPC', 'HTTP+JSON'] as A2aBinding[]) {
    it(`${binding}: reads the card, sends a message and gets the answer; gets and lists the task; another tenant finds none`, async () => {
      const alice = await a2aClientOf(answering.url, 'alice', binding);
      expect(alice.transport.protocolName).toBe(binding);
      const card = await alice.getAgentCard();
      expect(card.supportedInterfaces.map(({ protocolBinding }) => protocolBinding)).toEqual([
        'JSONRPC',
        'HTTP+JSON',
      ]);
      expect(card.capabilities?.streaming).toBe(true);

      const task = (await alice.sendMessage(userMessage('What is the answer?'))) as Task;
      expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
      expect(Task.toJSON(task)).toMatchObject({
        artifacts: [{ artifactId: 'answer', name: 'answer', parts: [{ text: ANSWER }] }],
        history: [
          { role: 'ROLE_USER', parts: [{ text: 'What is the answer?' }] },
          { role: 'ROLE_AGENT', parts: [{ text: ANSWER }] },
        ],
      });

      const got = Task.toJSON(await alice.getTask({ id: task.id, tenant: '', historyLength: 1 }));
      expect(got).toMatchObject({
        id: task.id,
        contextId: task.contextId,
        status: { state: 'TASK_STATE_COMPLETED' },
        history: [{ role: 'ROLE_AGENT' }],
      });
      const listed = await alice.listTasks({ ...emptyList(), contextId: task.contextId });
      expect(listed.tasks.map(({ id }) => id)).toEqual([task.id]);

      const bob = await a2aClientOf(answering.url, 'bob', binding);
      await expect(bob.getTask({ id: task.id, tenant: '' })).rejects.toBeInstanceOf(TaskNotFoundError);
      expect((await bob.listTasks({ ...emptyList(), contextId: task.contextId })).tasks).toEqual([]);
    });
  }

  it('streams a turn: the task first, then its updates, the answer as an artifact, completed last', async () => {
    const alice = await a2aClientOf(answering.url, 'alice');
    const events = await wire(alice.sendMessageStream(userMessage('Stream it')));
    expect(events[0]).toMatchObject({ task: { status: { state: 'TASK_STATE_WORKING' } } });
    expect(events.at(-2)).toMatchObject({ artifactUpdate: { artifact: { parts: [{ text: ANSWER }] } } });
    expect(events.at(-1)).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('waits for input while a call waits for a person; answering approves it; a dropped stream resumes where it stands', async () => {
    const alice = await a2aClientOf(approving.url, 'alice');
    const first = await wire(alice.sendMessageStream(userMessage('Echo twice')));
    expect(first.at(-1)).toMatchObject({ statusUpdate: { status: waitingFor('one') } });
    const { taskId } = (first.at(-1) as { statusUpdate: { taskId: string } }).statusUpdate;

    // The answer's stream is dropped after its first event; the turn goes on to the second call.
    const leave = new AbortController();
    const answered = alice.sendMessageStream(userMessage('approve', { taskId }), { signal: leave.signal });
    const { value } = await answered[Symbol.asyncIterator]().next();
    leave.abort();
    expect(StreamResponse.toJSON(value as StreamResponse)).toMatchObject({ task: { id: taskId } });

    // Subscribing again gives the task as it stands, then each event after it, once, up to the
    // second call's wait: the seqs follow on from the snapshot's, none missing, none repeated.
    const again = await wire(alice.resubscribeTask({ id: taskId, tenant: '' }));
    const [snapshot, ...updates] = again as Array<{
      task?: { metadata?: { seq?: number } };
      statusUpdate?: { metadata?: { seq?: number } };
    }>;
    const from = snapshot?.task?.metadata?.seq ?? Number.NaN;
    expect(updates.map(({ statusUpdate }) => statusUpdate?.metadata?.seq)).toEqual(
      updates.map((_, n) => from + n + 1),
    );
    expect(again.at(-1)).toMatchObject(
      updates.length === 0
        ? { task: { status: waitingFor('two') } }
        : { statusUpdate: { status: waitingFor('two') } },
    );

    const last = (await alice.sendMessage(userMessage('approve: fine', { taskId }))) as Task;
    expect(stateOf(last)).toBe('TASK_STATE_COMPLETED');
    expect(Task.toJSON(last)).toMatchObject({ artifacts: [{ parts: [{ text: 'Echoed twice.' }] }] });
  });

  // How long a cancel takes is a bench row (npm run bench: target 2 s), not a test's.
  it('cancels a running task; canceling it again answers it canceled', async () => {
    const alice = await a2aClientOf(sleeping.url, 'alice');
    const task = (await alice.sendMessage(userMessage('Sleep', {}, { returnImmediately: true }))) as Task;
    expect(stateOf(task)).toBe('TASK_STATE_WORKING');
    const canceled = await alice.cancelTask({ id: task.id, tenant: '', metadata: undefined });
    expect(stateOf(canceled)).toBe('TASK_STATE_CANCELED');
    const again = await alice.cancelTask({ id: task.id, tenant: '', metadata: undefined });
    expect(stateOf(again)).toBe('TASK_STATE_CANCELED');
  });
});

/** `ListTasks`' params with nothing set, in the SDK's in-memory form. */
function emptyList() {
  return {
    tenant: '',
    contextId: '',
    status: TaskState.TASK_STATE_UNSPECIFIED,
    pageSize: undefined,
    pageToken: '',
    historyLength: undefined,
    statusTimestampAfter: undefined,
    includeArtifacts: undefined,
  };
}
