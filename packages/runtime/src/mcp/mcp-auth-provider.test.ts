import { generateKeyPairSync, type KeyObject, verify } from 'node:crypto';
import { once } from 'node:events';
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { listMcpTools } from './list-mcp-tools.js';
import { McpConnections } from './mcp-connections.js';
import type { McpOAuth } from './mcp-oauth-spec.js';
import type { McpServerSpec } from './mcp-server-spec.js';

const CLIENT_ID = 'agent-client';
const CLIENT_SECRET = 'agent-secret';
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** One token request as the authorization server saw it. */
interface TokenRequest {
  grant: string | null;
  authorization: string | undefined;
  assertion: Record<string, unknown> | undefined;
  scope: string | null;
}

async function listen(server: HttpServer): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

function json(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** The claims of an ES256 JWT when `key` signed it, else undefined. */
function verifiedClaims(jwt: string, key: KeyObject): Record<string, unknown> | undefined {
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  return signed ? JSON.parse(Buffer.from(payload, 'base64url').toString()) : undefined;
}

/**
 * An OAuth authorization server that grants client credentials (client_secret_basic, or
 * private_key_jwt signed by `publicKey`'s private key), and a streamable HTTP MCP server made with
 * the official SDK that answers only bearers of its tokens (401 naming its metadata otherwise).
 * `refuse` makes the token endpoint refuse every client; `revoke` forgets the tokens it issued.
 */
async function protectedServer(publicKey?: KeyObject) {
  const tokenRequests: TokenRequest[] = [];
  const bearers: Array<string | undefined> = [];
  const issued = new Set<string>();
  const state = { refuse: false };
  const authServer = createServer(async (request, response) => {
    if (request.url === '/.well-known/oauth-authorization-server')
      return json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['client_credentials'],
      });
    if (request.url !== '/token') return json(response, 404, { error: 'not_found' });
    const form = new URLSearchParams(await bodyOf(request));
    const assertion = form.get('client_assertion') ?? undefined;
    const claims = assertion && publicKey ? verifiedClaims(assertion, publicKey) : undefined;
    tokenRequests.push({
      grant: form.get('grant_type'),
      authorization: request.headers.authorization,
      assertion: claims,
      scope: form.get('scope'),
    });
    const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    const jwtOk =
      form.get('client_assertion_type') === JWT_BEARER &&
      claims?.iss === CLIENT_ID &&
      claims.sub === CLIENT_ID;
    if (state.refuse || !(request.headers.authorization === basic || jwtOk))
      return json(response, 401, { error: 'invalid_client', error_description: 'Unknown client.' });
    const token = `token-${issued.size + 1}`;
    issued.add(token);
    json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
  });
  const mcpServer = createServer(async (request, response) => {
    if (request.url === '/.well-known/oauth-protected-resource/mcp')
      return json(response, 200, { resource: `${mcpOrigin}/mcp`, authorization_servers: [issuer] });
    const bearer = request.headers.authorization?.replace(/^Bearer /, '');
    bearers.push(bearer);
    if (bearer === undefined || !issued.has(bearer))
      return json(
        response,
        401,
        { error: 'invalid_token' },
        {
          'www-authenticate': `Bearer resource_metadata="${mcpOrigin}/.well-known/oauth-protected-resource/mcp"`,
        },
      );
    const server = new Server({ name: 'secure', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'whisper', inputSchema: { type: 'object' } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({
      content: [{ type: 'text', text: 'psst' }],
    }));
    response.on('close', () => void server.close());
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  const issuer = await listen(authServer);
  const mcpOrigin = await listen(mcpServer);
  opened.push({ close: () => void authServer.close() }, { close: () => void mcpServer.close() });
  return {
    issuer,
    url: `${mcpOrigin}/mcp`,
    tokenRequests,
    bearers,
    refuse: () => {
      state.refuse = true;
    },
    revoke: () => issued.clear(),
  };
}

const opened: Array<{ close(): unknown }> = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((thing) => thing.close()));
});

/** The connections to one server `secure`, its secrets read from `secrets`. */
function connectionsTo(spec: McpServerSpec, secrets: Record<string, string>) {
  const servers = { secure: spec };
  const connections = new McpConnections(servers, { secretOf: async (name) => secrets[name] });
  opened.push(connections);
  return { servers, connections };
}

/** The names of the tools `secure` lists, and the problems listing them had. */
async function listed(spec: McpServerSpec, secrets: Record<string, string>) {
  const { servers, connections } = connectionsTo(spec, secrets);
  const { tools, problems } = await listMcpTools(servers, connections);
  return { tools: tools.map(({ name }) => name), problems };
}

const basicOAuth = (issuer: string): McpOAuth => ({
  issuer,
  clientId: CLIENT_ID,
  clientSecret: { secret: 'MCP_CLIENT_SECRET' },
});

describe('McpConnections with oauth (client credentials)', () => {
  it('gets a token with client_secret_basic from the secret and sends it as the bearer', async () => {
    const peer = await protectedServer();
    const oauth = { ...basicOAuth(peer.issuer), scope: 'tools:read' };
    expect(await listed({ url: peer.url, oauth }, { MCP_CLIENT_SECRET: CLIENT_SECRET })).toEqual({
      tools: ['secure__whisper'],
      problems: [],
    });
    expect(peer.tokenRequests).toEqual([
      {
        grant: 'client_credentials',
        authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
        assertion: undefined,
        scope: 'tools:read',
      },
    ]);
    // The first request went without a token and was refused; every later one carried it.
    expect(peer.bearers[0]).toBeUndefined();
    expect(new Set(peer.bearers.slice(1))).toEqual(new Set(['token-1']));
  });

  it('gets a token with private_key_jwt: a JWT signed by the PEM key of the secret, for the issuer', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const peer = await protectedServer(publicKey);
    const pem = privateKey.export({ format: 'pem', type: 'sec1' }).toString();
    const oauth: McpOAuth = { issuer: peer.issuer, clientId: CLIENT_ID, privateKey: { secret: 'MCP_KEY' } };
    expect(await listed({ url: peer.url, oauth }, { MCP_KEY: pem })).toEqual({
      tools: ['secure__whisper'],
      problems: [],
    });
    expect(peer.tokenRequests).toEqual([
      {
        grant: 'client_credentials',
        authorization: undefined,
        assertion: expect.objectContaining({ iss: CLIENT_ID, sub: CLIENT_ID, aud: peer.issuer }),
        scope: null,
      },
    ]);
  });

  it('says the authorization server refused the token request, naming the server and the issuer', async () => {
    const peer = await protectedServer();
    const oauth = basicOAuth(peer.issuer);
    expect(await listed({ url: peer.url, oauth }, { MCP_CLIENT_SECRET: 'wrong' })).toEqual({
      tools: [],
      problems: [
        `MCP server secure (${new URL(peer.url).origin}) could not be reached: its authorization server (${peer.issuer}) refused the token request (invalid_client: Unknown client.)`,
      ],
    });
  });

  it('fails a call, saying why, when its token was revoked and a new one is refused', async () => {
    const peer = await protectedServer();
    const { connections } = connectionsTo(
      { url: peer.url, oauth: basicOAuth(peer.issuer) },
      { MCP_CLIENT_SECRET: CLIENT_SECRET },
    );
    const call = () => connections.callTool('secure', 'whisper', {}, { timeoutMs: 5_000 });
    expect((await call()).content).toEqual([{ type: 'text', text: 'psst' }]);
    peer.revoke();
    peer.refuse();
    await expect(call()).rejects.toThrow(
      `MCP server secure could not be reached: its authorization server (${peer.issuer}) refused the token request (invalid_client: Unknown client.)`,
    );
  });

  it('names the server and the secret that has no value, and asks nothing of the authorization server', async () => {
    const peer = await protectedServer();
    expect(await listed({ url: peer.url, oauth: basicOAuth(peer.issuer) }, {})).toEqual({
      tools: [],
      problems: [
        'MCP server secure: The MCP oauth.clientSecret needs the secret "MCP_CLIENT_SECRET", which has no value: set it (an environment variable locally, a Secrets Manager secret when deployed).',
      ],
    });
    expect(peer.tokenRequests).toEqual([]);
  });

  it('never sends the credentials to an authorization server other than its issuer', async () => {
    const peer = await protectedServer();
    const oauth = basicOAuth('https://login.example.com');
    const { problems } = await listed({ url: peer.url, oauth }, { MCP_CLIENT_SECRET: CLIENT_SECRET });
    expect(problems).toEqual([
      expect.stringContaining(
        `MCP server secure (${new URL(peer.url).origin}) could not be reached: OAuth client information is bound to authorization server https://login.example.com and is not presented to ${peer.issuer}`,
      ),
    ]);
    expect(peer.tokenRequests).toEqual([]);
  });

  it('says what to do when a server without oauth or an Authorization header asks for authorization', async () => {
    const peer = await protectedServer();
    const { problems } = await listed({ url: peer.url }, {});
    expect(problems).toEqual([
      `MCP server secure (${new URL(peer.url).origin}) could not be reached: Streamable HTTP error: Error POSTing to endpoint: {"error":"invalid_token"}; it asks for authorization (HTTP 401): give the server oauth (client credentials) or an Authorization header`,
    ]);
  });
});
