import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { serveScriptInProcess } from '../support/in-process.js';
import { type ApiEvent, approveWaiting, call, eventsOnce, type Served } from '../support/serve-client.js';
import { type Everything, startEverything, stopEverything } from '../support/server-everything.js';

/**
 * Every turn: one batch of server-everything's tools, `NAME__TOOL` as `--mcp everything=URL` names
 * them: an echo, an echo with the wrong argument, and a sum that waits for approval
 * (`--approve everything__get-sum`); then an answer.
 */
const SCRIPT = [
  batch(
    ['everything__echo', { message: 'one' }],
    ['everything__echo', { text: 'wrong' }],
    ['everything__get-sum', { a: 2, b: 3 }],
  ),
  'Done.<end>',
];

/** Every turn: one sum that waits for approval, then an answer. */
const WAITING_SCRIPT = [batch(['everything__get-sum', { a: 2, b: 3 }]), 'Done.<end>'];

const ended = (events: ApiEvent[]) => events.some((event) => event.type === 'turn_end');
const requested = (events: ApiEvent[]) => events.some((event) => event.type === 'approval');

/** The turn's batch results, in call order, and how the turn ended. */
function outcome(events: ApiEvent[]) {
  const result = events.find((event) => event.type === 'result');
  const end = events.find((event) => event.type === 'turn_end');
  return { results: JSON.parse(String(result?.content)), status: end?.payload?.status };
}

/** A served agent with server-everything's tools, and the server. */
async function servedWithEverything(
  name: string,
  script: unknown[],
): Promise<{ served: Served; everything: Everything }> {
  const everything = await startEverything();
  const args = ['--mcp', `everything=${everything.url}`, '--approve', 'everything__get-sum'];
  return { served: await serveScriptInProcess(name, script, args), everything };
}

async function startTurn(url: string): Promise<string> {
  const { body } = await call(`${url}/sessions`, 'ann', { method: 'POST', json: { message: 'Go' } });
  return body.session;
}

describe.skipIf(dynamoEndpoint === '')(
  'tools of an MCP server (`serve --mcp everything=URL`, server-everything over streamable HTTP)',
  () => {
    let running: { served: Served; everything: Everything };
    let stopping: { served: Served; everything: Everything };
    beforeAll(async () => {
      [running, stopping] = await Promise.all([
        servedWithEverything('mcp-tools', SCRIPT),
        servedWithEverything('mcp-tools-stopped', WAITING_SCRIPT),
      ]);
    });
    afterAll(async () => {
      for (const { served, everything } of [running, stopping]) {
        expect(await served?.stop()).toBe(0);
        await stopEverything(everything);
      }
    });

    it('runs the batch in call order: results, a failure naming the bad field, a call that waited for approval', async () => {
      const { url } = running.served;
      const session = await startTurn(url);
      await approveWaiting(url, 'ann', session);
      const { results, status } = outcome(await eventsOnce(url, 'ann', session, ended));
      expect(status).toBe('done');
      expect(results).toEqual([
        { tool: 'everything__echo', status: 'success', content: 'Echo: one' },
        { tool: 'everything__echo', status: 'failure', content: expect.stringMatching(/message/) },
        { tool: 'everything__get-sum', status: 'success', content: expect.stringContaining('5') },
      ]);
    });

    it('a server stopped mid-turn (while a call waits for approval) fails the calls left with a clear failure, and the turn goes on', async () => {
      const { url } = stopping.served;
      const session = await startTurn(url);
      await eventsOnce(url, 'ann', session, requested);
      await stopEverything(stopping.everything);
      await approveWaiting(url, 'ann', session);
      const { results, status } = outcome(await eventsOnce(url, 'ann', session, ended));
      expect(status).toBe('done');
      expect(results).toEqual([
        {
          tool: 'everything__get-sum',
          status: 'failure',
          content: expect.stringMatching(/^MCP server everything /),
        },
      ]);
    });
  },
);
