import { describe, expect, it } from 'vitest';
import { createApi } from './create-api.js';
import { bearerNameTenant } from './tenants.js';
import { inMemoryApiDeps, mcpClientOf } from './testing/index.js';

/** The API in memory (turns start and wait), with an official SDK client acting for a tenant. */
function api() {
  const app = createApi(inMemoryApiDeps(bearerNameTenant));
  const start = async (tenant: string) => {
    const response = await app.request('/sessions', {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Hello.' }),
    });
    return ((await response.json()) as { session: string }).session;
  };
  const client = (tenant: string) => mcpClientOf(app, tenant);
  return { start, client };
}

describe('the MCP server: sessions as resources, and the logging level', () => {
  it("lists the tenant's sessions newest first, reads one as its summary, and finds no other tenant's", async () => {
    const { start, client } = api();
    const first = await start('alice');
    const second = await start('alice');
    const bobs = await start('bob');
    const alice = await client('alice');

    const { resources, nextCursor } = await alice.listResources();
    expect(resources.map(({ uri }) => uri).sort()).toEqual(
      [`agentstep://sessions/${first}`, `agentstep://sessions/${second}`].sort(),
    );
    expect(resources[0]).toMatchObject({ name: expect.any(String), mimeType: 'application/json' });
    expect(nextCursor).toBeUndefined();

    const { contents } = await alice.readResource({ uri: `agentstep://sessions/${first}` });
    expect(contents).toHaveLength(1);
    const [content] = contents;
    expect(content && 'text' in content && JSON.parse(content.text)).toMatchObject({
      session: first,
      turns: 1,
    });

    await expect(alice.readResource({ uri: `agentstep://sessions/${bobs}` })).rejects.toMatchObject({
      code: -32002,
      message: expect.stringContaining(`agentstep://sessions/${bobs} not found`),
    });
    await expect(alice.readResource({ uri: 'file:///etc/passwd' })).rejects.toMatchObject({ code: -32002 });
  });

  it("names the shape of a session's URI as a template", async () => {
    const { resourceTemplates } = await (await api().client('alice')).listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'agentstep://sessions/{session}', name: 'session' }),
    ]);
  });

  it('refuses a cursor it did not give with Invalid params', async () => {
    const alice = await api().client('alice');
    await expect(alice.listResources({ cursor: 'x' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('cursor "x"'),
    });
  });

  it('takes logging/setLevel with an empty result, and refuses a level that is none of the levels', async () => {
    const alice = await api().client('alice');
    expect(alice.getServerCapabilities()).toMatchObject({ logging: {}, resources: {} });
    expect(await alice.setLoggingLevel('info')).toEqual({});
    await expect(alice.setLoggingLevel('loud' as 'info')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid params for logging/setLevel: params.level must be '),
    });
  });
});
