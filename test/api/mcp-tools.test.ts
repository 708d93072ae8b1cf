import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '../support/dynamo-client.js';
import { batch } from '../support/harness.js';
import { newProject, serveScriptInProcess, serveScriptOn } from '../support/in-process.js';
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

/**
 * An HTTP proxy in front of the MCP server at `target` that keeps each request's `X-Test` header:
 * what reached the server.
 */
async function headerRecordingProxy(target: string) {
  const upstream = new URL(target);
  const seen: Array<string | undefined> = [];
  const proxy = createServer((request, response) => {
    seen.push(request.headers['x-test'] as string | undefined);
    const { hostname, port } = upstream;
    const forwarded = httpRequest(
      { hostname, port, path: request.url, method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    response.on('close', () => forwarded.destroy());
    request.pipe(forwarded);
  }).listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const close = () => {
    proxy.closeAllConnections();
    proxy.close();
  };
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`, seen, close };
}

/** The environment variable the agent file's header names as its secret. */
const HEADER_SECRET = 'AGENTSTEP_TEST_MCP_HEADER';

describe.skipIf(dynamoEndpoint === '')(
  "an agent file's mcpServers (`serve --agent agent.ts`, server-everything over streamable HTTP)",
  () => {
    let everything: Everything;
    let proxy: Awaited<ReturnType<typeof headerRecordingProxy>>;
    let served: Served;
    const before = process.env[HEADER_SECRET];
    beforeAll(async () => {
      process.env[HEADER_SECRET] = 'from-the-environment';
      everything = await startEverything();
      proxy = await headerRecordingProxy(everything.url);
      const project = newProject('mcp-agent-file');
      const agent = {
        name: 'mcp-agent',
        mcpServers: {
          everything: {
            url: proxy.url,
            tools: ['echo', 'get-sum'],
            approval: ['get-sum'],
            headers: { 'X-Test': { secret: HEADER_SECRET } },
          },
        },
      };
      writeFileSync(join(project.cwd, 'agent.ts'), `export default ${JSON.stringify(agent)};\n`);
      // A sum (approval-listed), an echo, and a tool of the server the allowlist leaves out.
      const script = [
        batch(
          ['everything__get-sum', { a: 2, b: 3 }],
          ['everything__echo', { message: 'one' }],
          ['everything__get-tiny-image', {}],
        ),
        'Done.<end>',
      ];
      served = await serveScriptOn(project, 'mcp-agent-file', script, ['--agent', 'agent.ts']);
    });
    afterAll(async () => {
      expect(await served?.stop()).toBe(0);
      proxy?.close();
      await stopEverything(everything);
      if (before === undefined) delete process.env[HEADER_SECRET];
      else process.env[HEADER_SECRET] = before;
    });

    it('offers only the allowlisted tools, holds the approval-listed one until approved, and sends the header from the environment', async () => {
      const { url } = served;
      const session = await startTurn(url);
      const waiting = await eventsOnce(url, 'ann', session, requested);
      expect(
        waiting.filter((event) => event.type === 'approval').map(({ payload }) => payload?.tool),
      ).toEqual(['everything__get-sum']);
      expect(ended(waiting)).toBe(false);
      await approveWaiting(url, 'ann', session);
      const { results, status } = outcome(await eventsOnce(url, 'ann', session, ended));
      expect(status).toBe('done');
      expect(results).toEqual([
        { tool: 'everything__get-sum', status: 'success', content: expect.stringContaining('5') },
        { tool: 'everything__echo', status: 'success', content: 'Echo: one' },
        {
          tool: 'everything__get-tiny-image',
          status: 'failure',
          content:
            "Unknown tool 'everything__get-tiny-image'. Available: everything__echo, everything__get-sum",
        },
      ]);
      expect(proxy.seen.length).toBeGreaterThan(0);
      expect(new Set(proxy.seen)).toEqual(new Set(['from-the-environment']));
    });
  },
);
