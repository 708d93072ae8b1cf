import type { ApprovalsList, ErrorBody, SessionSummary, ToolsList, TurnAccepted } from '@agentstep/protocol';
import { describe, expect, it } from 'vitest';
import { createApi } from './create-api.js';
import { bearerNameTenant, storedSession } from './tenants.js';
import { inMemoryApiDeps, stepIntoApprovals } from './testing/index.js';

/** `alice`'s running turn, its model step calling `echo` twice, both calls waiting for approval. */
async function waitingSession() {
  // Streams of a turn that keeps running end at their cap, for the test to read them whole.
  const deps = { ...inMemoryApiDeps(bearerNameTenant), cancelGraceMs: 0, streamLimitMs: 100, pollMs: 10 };
  const app = createApi(deps);
  const request = async (tenant: string, method: string, path: string, body?: unknown) => {
    const response = await app.request(path, {
      method,
      headers: { authorization: `Bearer ${tenant}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };
  const stream = async (query = '') => {
    const response = await app.request(`/sessions/${session}/stream${query}`, {
      headers: { authorization: 'Bearer alice' },
    });
    return (await response.text()).split('\n');
  };
  const started = await request('alice', 'POST', '/sessions', { message: 'Echo twice' });
  const { session, turn } = started.body as TurnAccepted;
  const stored = storedSession('alice', session);
  const { batch, approvals } = await stepIntoApprovals(deps, { session: stored, turn }, [
    ['echo', { text: 'a' }],
    ['echo', { text: 'b' }],
  ]);
  const [first, second] = approvals as [string, string];
  const lastEvent = async () => (await deps.log.read(stored)).at(-1)?.event;
  const pending = async () =>
    ((await request('alice', 'GET', `/sessions/${session}/approvals`)).body as ApprovalsList).approvals;
  const decide = (approval: string, body: unknown, tenant = 'alice') =>
    request(tenant, 'POST', `/sessions/${session}/approvals/${approval}`, body);
  return { deps, request, stream, session, batch, first, second, lastEvent, pending, decide };
}

describe('the approval routes', () => {
  it('GET /tools lists the tools with the JSON Schema edited arguments must pass', async () => {
    const { request } = await waitingSession();
    const { status, body } = await request('alice', 'GET', '/tools');
    expect(status).toBe(200);
    const { tools } = body as ToolsList;
    expect(tools.find((tool) => tool.name === 'echo')).toEqual({
      name: 'echo',
      description: 'Returns its text unchanged.',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      },
    });
  });

  it('GET /approvals lists the calls waiting for a decision, oldest first, in their API shape', async () => {
    const { request, session, batch, first, second } = await waitingSession();
    const { status, body } = await request('alice', 'GET', `/sessions/${session}/approvals`);
    expect(status).toBe(200);
    const at = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
    expect(body).toEqual({
      approvals: [
        { id: first, tool: 'echo', args: { text: 'a' }, batch, position: 0, requestedAt: at, expiresAt: at },
        { id: second, tool: 'echo', args: { text: 'b' }, batch, position: 1, requestedAt: at, expiresAt: at },
      ],
    });
  });

  it('approves with edited args: 200, an approved event with the args and the caller as by, the waiting task woken', async () => {
    const { deps, decide, first, lastEvent, pending } = await waitingSession();
    const decided = await decide(first, { decision: 'approve', args: { text: 'edited' } });
    expect(decided).toEqual({ status: 200, body: { id: first, decision: 'approve' } });
    expect(await lastEvent()).toMatchObject({
      type: 'approval',
      payload: { id: first, status: 'approved', by: 'alice', args: { text: 'edited' } },
    });
    expect(deps.taskTokens.sent).toEqual([{ token: 'token-0', output: { approval: first } }]);
    expect((await pending()).map((approval) => approval.args)).toEqual([{ text: 'b' }]);
  });

  it('denies with a reason, logged with the decision', async () => {
    const { decide, second, lastEvent } = await waitingSession();
    expect(await decide(second, { decision: 'deny', reason: 'Not b.' })).toEqual({
      status: 200,
      body: { id: second, decision: 'deny' },
    });
    expect(await lastEvent()).toMatchObject({
      payload: { id: second, status: 'denied', reason: 'Not b.', by: 'alice' },
    });
  });

  it('a second decision is 409 AlreadyDecided, and the first stands', async () => {
    const { decide, first, lastEvent } = await waitingSession();
    await decide(first, { decision: 'deny' });
    const again = await decide(first, { decision: 'approve' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'AlreadyDecided' } });
    expect(await lastEvent()).toMatchObject({ payload: { id: first, status: 'denied' } });
  });

  it('edited args the tool refuses are 400 ValidationError with fields under args; the approval still waits', async () => {
    const { deps, decide, first, pending } = await waitingSession();
    const refused = await decide(first, { decision: 'approve', args: { text: 5 } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: { code: 'ValidationError', fields: [{ path: 'args.text', message: expect.any(String) }] },
    });
    const unknown = await decide(first, { decision: 'approve', args: { text: 'a', loud: true } });
    expect((unknown.body as ErrorBody).error.fields).toEqual([
      { path: 'args', message: expect.stringContaining('loud') },
    ]);
    expect((await pending()).map((approval) => approval.id)).toContain(first);
    expect(deps.taskTokens.sent).toEqual([]);
  });

  it.each([
    ['args on a denial', { decision: 'deny', args: { text: 'x' } }, 'args'],
    ['an unknown decision', { decision: 'maybe' }, 'decision'],
  ])('%s is a 400 ValidationError of the body', async (_, body, path) => {
    const { decide, first } = await waitingSession();
    const refused = await decide(first, body);
    expect(refused.status).toBe(400);
    expect((refused.body as ErrorBody).error).toMatchObject({ code: 'ValidationError', fields: [{ path }] });
  });

  it('an unknown approval id is 404 ApprovalNotFound', async () => {
    const { decide } = await waitingSession();
    const missing = await decide('t-none.1.0', { decision: 'approve' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'ApprovalNotFound' } });
  });

  it('another tenant gets 404 SessionNotFound for the list and a decision, and nothing is decided', async () => {
    const { deps, request, session, decide, first, pending } = await waitingSession();
    const listed = await request('mallory', 'GET', `/sessions/${session}/approvals`);
    expect(listed).toMatchObject({ status: 404, body: { error: { code: 'SessionNotFound' } } });
    const decided = await decide(first, { decision: 'approve' }, 'mallory');
    expect(decided).toMatchObject({ status: 404, body: { error: { code: 'SessionNotFound' } } });
    expect(await pending()).toHaveLength(2);
    expect(deps.taskTokens.sent).toEqual([]);
  });

  it('GET /sessions/{id} says waiting while a call waits, running once every call is decided', async () => {
    const { request, session, decide, first, second } = await waitingSession();
    const status = async () =>
      ((await request('alice', 'GET', `/sessions/${session}`)).body as SessionSummary).status;
    expect(await status()).toBe('waiting');
    await decide(first, { decision: 'approve' });
    expect(await status()).toBe('waiting');
    await decide(second, { decision: 'deny' });
    expect(await status()).toBe('running');
  });

  it('a cancel settles the waiting calls as cancelled and wakes each at once', async () => {
    const { deps, request, session, first, second, pending } = await waitingSession();
    expect((await request('alice', 'POST', `/sessions/${session}/cancel`)).status).toBe(202);
    expect(deps.taskTokens.sent).toEqual([
      { token: 'token-0', output: { approval: first } },
      { token: 'token-1', output: { approval: second } },
    ]);
    expect(await pending()).toEqual([]);
  });

  it("the stream carries the approval events, and the AI SDK format sends each as the SDK's approval parts", async () => {
    const { stream, decide, first, second } = await waitingSession();
    await decide(first, { decision: 'approve' });
    const events = (await stream()).filter((line) => line.startsWith('event: '));
    expect(events.filter((line) => line === 'event: approval')).toHaveLength(3);
    const chunks = (await stream('?format=ai-sdk'))
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)));
    expect(chunks.filter((chunk) => chunk.type.startsWith('tool-approval-'))).toEqual([
      { type: 'tool-approval-request', approvalId: first, toolCallId: expect.stringMatching(/#0$/) },
      { type: 'tool-approval-request', approvalId: second, toolCallId: expect.stringMatching(/#1$/) },
      { type: 'tool-approval-response', approvalId: first, approved: true },
    ]);
  });
});
