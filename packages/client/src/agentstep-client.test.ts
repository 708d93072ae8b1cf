import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerNameTenant, createApi, storedSession } from '@agentstep/api';
import { inMemoryApiDeps, stepIntoApprovals } from '@agentstep/api/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentStepClient } from './agentstep-client.js';
import { AgentStepApiError } from './errors.js';

/** A request the stub server received. */
interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Answer = (request: Received, response: ServerResponse) => void;

let close: (() => void) | undefined;

afterEach(() => close?.());

/** A local HTTP server answering with `answers` in turn; the client pointed at it and what it received. */
async function stub(...answers: Answer[]) {
  const received: Received[] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
    received.push(entry);
    answers.shift()?.(entry, response);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  close = () => server.close().closeAllConnections();
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { client: new AgentStepClient({ baseUrl, token: async () => 'alice' }), received };
}

const json =
  (status: number, body: unknown): Answer =>
  (_, response) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('AgentStepClient', () => {
  it('start posts the turn as JSON with the bearer token and Idempotency-Key, and returns the 202 body', async () => {
    const accepted = { session: 's-1', turn: 't-1', status: 'running' };
    const { client, received } = await stub(json(202, accepted));
    expect(await client.start({ message: 'Hi', maxSteps: 3 }, { idempotencyKey: 'k-1' })).toEqual(accepted);
    expect(received).toMatchObject([
      {
        method: 'POST',
        url: '/sessions',
        headers: {
          authorization: 'Bearer alice',
          'content-type': 'application/json',
          'idempotency-key': 'k-1',
        },
        body: JSON.stringify({ message: 'Hi', maxSteps: 3 }),
      },
    ]);
  });

  it('cancel posts to the session cancel route and resolves on 202', async () => {
    const { client, received } = await stub(json(202, { session: 's/1', status: 'cancelling' }));
    await expect(client.cancel('s/1')).resolves.toBeUndefined();
    expect(received).toMatchObject([{ method: 'POST', url: '/sessions/s%2F1/cancel', body: '' }]);
  });

  it('cancel throws NoTurnRunning (409) as an AgentStepApiError', async () => {
    const refusal = { error: { code: 'NoTurnRunning', message: 'Session s-1 runs no turn.' } };
    const { client } = await stub(json(409, refusal));
    const cancel = client.cancel('s-1');
    await expect(cancel).rejects.toBeInstanceOf(AgentStepApiError);
    await expect(cancel).rejects.toMatchObject({ status: 409, code: 'NoTurnRunning', fields: undefined });
  });

  it('events pages with after and limit in the query', async () => {
    const { client, received } = await stub(json(200, { events: [], next: null }));
    expect(await client.events('s-1', { after: 4, limit: 2 })).toEqual({ events: [], next: null });
    expect(received[0]?.url).toBe('/sessions/s-1/events?after=4&limit=2');
  });

  it('stream resumes a closed connection with Last-Event-ID over HTTP', async () => {
    const user = { seq: 1, type: 'user', content: 'Hi', timestamp: 1 };
    const sse =
      (text: string): Answer =>
      (_, response) =>
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end(text);
    const { client, received } = await stub(
      sse(`id: 1\nevent: user\ndata: ${JSON.stringify(user)}\n\n`),
      sse(`event: done\ndata: ${JSON.stringify({ status: 'done', turn: 't-1' })}\n\n`),
    );
    const items = [];
    for await (const item of client.stream('s-1', { retryDelayMs: 0 })) items.push(item);
    expect(items).toEqual([
      { type: 'user', seq: 1, event: user },
      { type: 'done', status: 'done', turn: 't-1' },
    ]);
    expect(received.map((request) => request.headers['last-event-id'])).toEqual([undefined, '1']);
  });
});

describe('AgentStepClient approvals, on the API app itself (its fetch is app.fetch)', () => {
  /** `alice`'s session whose running turn has one `echo` call waiting for approval. */
  async function waiting() {
    const deps = inMemoryApiDeps(bearerNameTenant);
    const app = createApi(deps);
    const fetch: typeof globalThis.fetch = async (input, init) => app.fetch(new Request(input, init));
    const client = new AgentStepClient({ baseUrl: 'http://agentstep.test', token: 'alice', fetch });
    const { session, turn } = await client.start({ message: 'Echo' });
    const { approvals } = await stepIntoApprovals(deps, { session: storedSession('alice', session), turn }, [
      ['echo', { text: 'a' }],
    ]);
    return { client, deps, session, approval: approvals[0] ?? expect.unreachable('no approval') };
  }

  it('approvals lists the waiting calls; decide approves one with edited args, waking it, and it is gone', async () => {
    const { client, deps, session, approval } = await waiting();
    expect(await client.approvals(session)).toEqual([
      expect.objectContaining({ id: approval, tool: 'echo', args: { text: 'a' }, position: 0 }),
    ]);
    expect(await client.decide(session, approval, { decision: 'approve', args: { text: 'b' } })).toEqual({
      id: approval,
      decision: 'approve',
    });
    expect(deps.taskTokens.sent).toEqual([{ token: 'token-0', output: { approval } }]);
    expect(await client.approvals(session)).toEqual([]);
    expect((await client.get(session)).status).toBe('running');
  });

  it('decide throws the refusals as AgentStepApiError: ValidationError with fields, then AlreadyDecided', async () => {
    const { client, session, approval } = await waiting();
    await expect(
      client.decide(session, approval, { decision: 'approve', args: { text: 1 } }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'ValidationError',
      fields: [{ path: 'args.text', message: expect.any(String) }],
    });
    expect((await client.get(session)).status).toBe('waiting');
    await client.decide(session, approval, { decision: 'deny', reason: 'No.' });
    const again = client.decide(session, approval, { decision: 'deny' });
    await expect(again).rejects.toBeInstanceOf(AgentStepApiError);
    await expect(again).rejects.toMatchObject({ status: 409, code: 'AlreadyDecided' });
  });

  it('decide on an unknown approval throws ApprovalNotFound (404)', async () => {
    const { client, session } = await waiting();
    await expect(client.decide(session, 'no/such', { decision: 'approve' })).rejects.toMatchObject({
      status: 404,
      code: 'ApprovalNotFound',
    });
  });
});

describe('AgentStepClient lists, on the API app itself', () => {
  it('listSessions pages the caller’s sessions with status, limit and after; listWorkflows lists its runs', async () => {
    const app = createApi(inMemoryApiDeps(bearerNameTenant));
    const fetch: typeof globalThis.fetch = async (input, init) => app.fetch(new Request(input, init));
    const client = new AgentStepClient({ baseUrl: 'http://agentstep.test', token: 'alice', fetch });
    const first = await client.start({ message: 'One' }, { idempotencyKey: 'one' });
    const second = await client.start({ message: 'Two' }, { idempotencyKey: 'two' });
    const all = await client.listSessions({ status: 'running' });
    expect(all.sessions.map(({ session }) => session).sort()).toEqual([first.session, second.session].sort());
    const page = await client.listSessions({ limit: 1 });
    expect(page.sessions).toHaveLength(1);
    const rest = await client.listSessions({ limit: 1, after: page.next ?? '' });
    expect([...page.sessions, ...rest.sessions].map(({ session }) => session).sort()).toEqual(
      [first.session, second.session].sort(),
    );
    const { run } = await client.startWorkflow({ agentfile: 'NAME one\nGOAL g "Do it."\nRUN r USING g\n' });
    expect(await client.listWorkflows()).toMatchObject({ runs: [{ run, workflow: 'one' }], next: null });
  });
});
