import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateTaskResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { serveScriptInProcess } from '../support/in-process.js';
import { call, eventsOnce, type Served } from '../support/serve-client.js';

/** Every turn answers in one model step. */
const ANSWER = 'The answer is 42.';

/** `@modelcontextprotocol/inspector-cli`'s binary, as its package.json names it. */
const INSPECTOR = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/inspector-cli/build/cli.js', import.meta.url),
);

/**
 * Where the inspector runs: its own `build` folder. Version 1.0.3 checks for `../package.json`
 * from the working directory but imports it from its module's folder, and fails elsewhere.
 */
const INSPECTOR_CWD = dirname(INSPECTOR);

let served: Served;

beforeAll(async () => {
  served = await serveScriptInProcess('mcp', [`${ANSWER}<end>`]);
});

afterAll(async () => {
  expect(await served?.stop()).toBe(0);
});

/** The official SDK's client of a `serve`'s `/mcp` (by default the file's), acting for `tenant` (`--auth dev`: the bearer names it). */
async function clientOf(tenant: string, url = served.url): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${tenant}` } },
  });
  const client = new Client({ name: 'agentstep-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function ask(client: Client, args: { message: string; session?: string }): Promise<CallToolResult> {
  return (await client.callTool({ name: 'ask', arguments: args })) as CallToolResult;
}

/** The inspector's CLI against `/mcp` as `alice`, its JSON output parsed. */
async function inspect(...args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      INSPECTOR,
      '--cli',
      `${served.url}/mcp`,
      '--transport',
      'http',
      '--header',
      'Authorization: Bearer alice',
      ...args,
    ],
    { cwd: INSPECTOR_CWD },
  );
  return JSON.parse(stdout);
}

describe.skipIf(dynamoEndpoint === '')('POST /mcp: the agent as an MCP server, on serve', () => {
  it('the SDK client initializes and lists ask, list_sessions and get_session', async () => {
    const client = await clientOf('alice');
    expect(client.getServerVersion()?.name).toBe('agentstep');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ask', 'list_sessions', 'get_session']);
    await client.close();
  });

  it('ask answers with the scripted answer and its session; a second ask continues it; another tenant cannot', async () => {
    const alice = await clientOf('alice');
    const first = await ask(alice, { message: 'What is the answer?' });
    const { session, turn } = first.structuredContent as { session: string; turn: string };
    expect(first).toEqual({
      content: [{ type: 'text', text: ANSWER }],
      structuredContent: { session, turn, status: 'done', answer: ANSWER },
    });
    const second = await ask(alice, { message: 'Again?', session });
    expect(second.structuredContent).toMatchObject({ session, status: 'done', answer: ANSWER });
    expect((second.structuredContent as { turn: string }).turn).not.toBe(turn);
    const events = (await call(`${served.url}/sessions/${session}/events?limit=1000`, 'alice')).body
      .events as Array<{
      type: string;
      content: string;
    }>;
    expect(events.filter((event) => event.type === 'user').map((event) => event.content)).toEqual([
      'What is the answer?',
      'Again?',
    ]);
    expect(events.filter((event) => event.type === 'turn_end')).toHaveLength(2);

    const bob = await clientOf('bob');
    const refused = await ask(bob, { message: 'Mine now?', session });
    expect(refused).toEqual({
      content: [{ type: 'text', text: `Session ${session} was not found.` }],
      isError: true,
    });
    const listed = (await bob.callTool({ name: 'list_sessions', arguments: {} })) as CallToolResult;
    expect(listed.structuredContent).toEqual({ sessions: [] });
    const aliceList = (await alice.callTool({ name: 'list_sessions', arguments: {} })) as CallToolResult;
    expect(aliceList.structuredContent).toMatchObject({ sessions: [{ session, turns: 2, status: 'idle' }] });
    expect((await call(`${served.url}/sessions/${session}`, 'alice')).body.turns).toBe(2);
    await Promise.all([alice.close(), bob.close()]);
  });

  it('@modelcontextprotocol/inspector-cli lists the tools and calls ask', async () => {
    const listed = (await inspect('--method', 'tools/list')) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((tool) => tool.name)).toEqual(['ask', 'list_sessions', 'get_session']);
    const called = (await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'ask',
      '--tool-arg',
      'message=Hello from the inspector',
    )) as CallToolResult;
    expect(called.content).toEqual([{ type: 'text', text: ANSWER }]);
    expect(called.structuredContent).toMatchObject({ status: 'done', answer: ANSWER });
  });
  it('a host that asks for a task gets the turn as one: the SDK streams its status, then the answer', async () => {
    const alice = await clientOf('alice');
    const messages = [];
    for await (const message of alice.experimental.tasks.callToolStream(
      { name: 'ask', arguments: { message: 'As a task' } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    ))
      messages.push(message);
    const [created, answered] = [messages[0], messages.at(-1)];
    expect(answered).toMatchObject({
      type: 'result',
      result: {
        content: [{ type: 'text', text: ANSWER }],
        structuredContent: { status: 'done', answer: ANSWER },
      },
    });
    // The task is the turn; a scripted turn may already have ended when the task is answered.
    const { session, turn } = (answered as { result: CallToolResult }).result.structuredContent as Record<
      string,
      string
    >;
    expect(created).toMatchObject({ type: 'taskCreated', task: { taskId: `${session}/${turn}` } });
    expect(['working', 'completed']).toContain((created as { task: { status: string } }).task.status);
    await alice.close();
  });
});

describe.skipIf(dynamoEndpoint === '')(
  'POST /mcp: a call waiting for approval (`serve --approve echo`)',
  () => {
    let approving: Served;

    beforeAll(async () => {
      approving = await serveScriptInProcess(
        'mcp-approval',
        [batch(['echo', { text: 'hi' }]), 'Echoed.<end>'],
        ['--approve', 'echo'],
      );
    });

    afterAll(async () => {
      expect(await approving?.stop()).toBe(0);
    });

    it('ask stays open, its progress names the approval, and it answers once the API approves the call', async () => {
      const transport = new StreamableHTTPClientTransport(new URL(`${approving.url}/mcp`), {
        requestInit: { headers: { authorization: 'Bearer alice' } },
      });
      const client = new Client({ name: 'agentstep-test', version: '1.0.0' });
      await client.connect(transport);
      const decisions: Promise<unknown>[] = [];
      const progress: string[] = [];
      const result = (await client.callTool({ name: 'ask', arguments: { message: 'Echo hi' } }, undefined, {
        onprogress: ({ message = '' }) => {
          progress.push(message);
          const waiting = /POST (\/sessions\/\S+\/approvals\/\S+) decides it/.exec(message);
          if (waiting?.[1])
            decisions.push(
              call(`${approving.url}${waiting[1]}`, 'alice', {
                method: 'POST',
                json: { decision: 'approve' },
              }),
            );
        },
      })) as CallToolResult;
      expect(await Promise.all(decisions)).toEqual([
        { status: 200, body: expect.objectContaining({ decision: 'approve' }) },
      ]);
      expect(result.structuredContent).toMatchObject({ status: 'done', answer: 'Echoed.' });
      expect(progress).toEqual([
        'The turn began.',
        expect.stringMatching(/^Running on agent version [0-9a-f]{12}\.$/),
        'Calling echo.',
        expect.stringMatching(/^A call of echo waits for approval /),
        expect.stringMatching(/ approved\.$/),
        '1 of 1 calls succeeded.',
        'Answering.',
        'The turn ended: done.',
      ]);
      await client.close();
    });

    it('a task outlives serve: after a restart, a done task still answers and a running one reads cancelled', async () => {
      const before = await clientOf('alice', approving.url);
      const askAsTask = async (message: string) => {
        const { task } = await before.request(
          { method: 'tools/call', params: { name: 'ask', arguments: { message }, task: {} } },
          CreateTaskResultSchema,
        );
        return { taskId: task.taskId, session: task.taskId.slice(0, task.taskId.lastIndexOf('/')) };
      };
      // The first task's call is approved and its turn ends; the second's waits when serve stops.
      const done = await askAsTask('Ends before the restart');
      await eventsOnce(approving.url, 'alice', done.session, (events) =>
        events.some(({ type }) => type === 'approval'),
      );
      const { body } = await call(`${approving.url}/sessions/${done.session}/approvals`, 'alice');
      const [waiting] = body.approvals as Array<{ id: string }>;
      await call(`${approving.url}/sessions/${done.session}/approvals/${waiting?.id}`, 'alice', {
        method: 'POST',
        json: { decision: 'approve' },
      });
      await before.experimental.tasks.getTaskResult(done.taskId, CallToolResultSchema);
      const running = await askAsTask('Waits');
      await before.close();
      expect(await approving.stop()).toBe(0);
      approving = await approving.restart();

      const after = await clientOf('alice', approving.url);
      expect(await after.experimental.tasks.getTask(done.taskId)).toMatchObject({ status: 'completed' });
      const answer = await after.experimental.tasks.getTaskResult(done.taskId, CallToolResultSchema);
      expect(answer.structuredContent).toMatchObject({ status: 'done', answer: 'Echoed.' });
      expect(await after.experimental.tasks.getTask(running.taskId)).toMatchObject({
        status: 'cancelled',
        statusMessage: expect.stringContaining('cancel'),
      });
      await after.close();
    });
  },
);
