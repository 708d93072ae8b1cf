import { eventLogWith, StoreUnavailableError } from '@agentstep/runtime';
import { describe, expect, it } from 'vitest';
import { createApi } from '../create-api.js';
import { bearerNameTenant } from '../tenants.js';
import { inMemoryApiDeps } from '../testing/index.js';

const AS_ALICE = { authorization: 'Bearer alice', 'content-type': 'application/json', 'a2a-version': '1.0' };

/** The API in memory (turns start and wait), told of its agent. */
function api() {
  return createApi({
    ...inMemoryApiDeps(bearerNameTenant),
    agentInfo: () => ({ name: 'helper', version: 'abc123', auth: 'oidc', issuer: 'https://id.example.com/' }),
  });
}

async function rpc(app: ReturnType<typeof api>, body: unknown, headers: Record<string, string> = AS_ALICE) {
  const response = await app.request('/a2a', { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the A2A routes', () => {
  it('serve the agent card to a caller with credentials: both bindings at its address, its version, OIDC', async () => {
    const app = api();
    expect((await app.request('/.well-known/agent-card.json')).status).toBe(401);
    const card = await (
      await app.request('http://agent.test/.well-known/agent-card.json', { headers: AS_ALICE })
    ).json();
    expect(card).toMatchObject({
      name: 'helper',
      version: 'abc123',
      supportedInterfaces: [
        { url: 'http://agent.test/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'http://agent.test/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
      capabilities: { streaming: true, pushNotifications: false },
      securitySchemes: {
        bearer: {
          openIdConnectSecurityScheme: {
            openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration',
          },
        },
      },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      // A skill per tool, as the model sees it.
      skills: expect.arrayContaining([
        { id: 'echo', name: 'echo', description: 'Returns its text unchanged.', tags: ['tool'] },
      ]),
    });
  });

  it('refuse a request without A2A-Version (read as 0.3) with VersionNotSupported, naming the version to send', async () => {
    const { authorization } = AS_ALICE;
    const { status, body } = await rpc(
      api(),
      { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } },
      { authorization },
    );
    expect(status).toBe(200);
    expect(body.error).toMatchObject({
      code: -32009,
      message: expect.stringContaining('send the header A2A-Version: 1.0'),
      data: [{ reason: 'VERSION_NOT_SUPPORTED', domain: 'a2a-protocol.org' }],
    });
  });

  it('answer an unknown method, bad params and an unknown task with their A2A codes', async () => {
    const app = api();
    const method = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'message/send', params: {} });
    expect(method.body.error).toMatchObject({
      code: -32601,
      message: expect.stringContaining('SendMessage'),
    });
    const params = await rpc(app, {
      jsonrpc: '2.0',
      id: 2,
      method: 'SendMessage',
      params: { message: { role: 'ROLE_USER' } },
    });
    expect(params.body).toMatchObject({
      id: 2,
      error: {
        code: -32602,
        message: expect.stringMatching(/^Invalid params for SendMessage: message\.messageId/),
      },
    });
    const task = await rpc(app, { jsonrpc: '2.0', id: 3, method: 'GetTask', params: { id: 's-1~t-1' } });
    expect(task.body.error).toMatchObject({ code: -32001, message: 'Task s-1~t-1 was not found.' });
    const file = {
      messageId: 'm1',
      role: 'ROLE_USER',
      parts: [{ url: 'https://x.test/a.pdf', mediaType: 'application/pdf' }],
    };
    const refused = await rpc(app, {
      jsonrpc: '2.0',
      id: 4,
      method: 'SendMessage',
      params: { message: file },
    });
    expect(refused.body.error).toMatchObject({
      code: -32005,
      message: expect.stringContaining('(application/pdf)'),
    });
  });

  it('answer the HTTP+JSON binding’s errors as google.rpc.Status with their HTTP status', async () => {
    const response = await api().request('/a2a/rest/tasks/s-1~t-1', { headers: AS_ALICE });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: {
        code: 404,
        status: 'NOT_FOUND',
        message: 'Task s-1~t-1 was not found.',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'TASK_NOT_FOUND',
            domain: 'a2a-protocol.org',
          },
        ],
      },
    });
    expect((await api().request('/a2a/rest/nowhere', { headers: AS_ALICE })).status).toBe(404);
  });

  it('start a turn for a message once, however often it is sent (its messageId), and list it by its context', async () => {
    const app = api();
    const message = { messageId: 'once', role: 'ROLE_USER', parts: [{ text: 'Hello' }, { data: { n: 1 } }] };
    const send = () =>
      rpc(app, {
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message, configuration: { returnImmediately: true } },
      });
    const first = (await send()).body.result as {
      task: { id: string; contextId: string; history: unknown[] };
    };
    const again = (await send()).body.result as { task: { id: string } };
    expect(again.task.id).toBe(first.task.id);
    expect(first.task.history).toEqual([
      expect.objectContaining({ role: 'ROLE_USER', parts: [{ text: 'Hello\n\n{"n":1}' }] }),
    ]);
    const listed = await rpc(app, {
      jsonrpc: '2.0',
      id: 2,
      method: 'ListTasks',
      params: { contextId: first.task.contextId },
    });
    // Listed before it logs its start (no engine runs it here): the turn holding the session.
    expect(listed.body.result).toMatchObject({
      tasks: [{ id: first.task.id, status: { state: 'TASK_STATE_WORKING' } }],
      nextPageToken: '',
      pageSize: 50,
      totalSize: 1,
    });
  });

  it('answer a store that cannot be reached 503 with Retry-After (safe to retry), and a task id that is no UTF-8 as not found', async () => {
    const deps = inMemoryApiDeps(bearerNameTenant);
    const down = createApi({
      ...deps,
      log: eventLogWith(deps.log, {
        appended: async () => {
          throw new StoreUnavailableError('throttled');
        },
      }),
    });
    const response = await down.request('/a2a', {
      method: 'POST',
      headers: AS_ALICE,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 's-1~t-1' } }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({
      error: { code: -32603, message: expect.stringContaining('The store is unavailable (throttled)') },
    });
    const rest = await down.request('/a2a/rest/tasks/s-1~t-1', { headers: AS_ALICE });
    expect(rest.status).toBe(503);
    const escaped = await api().request('/a2a/rest/tasks/%ZZ', { headers: AS_ALICE });
    expect(escaped.status).toBe(404);
  });
});
