// The client command of the MCP conformance suite (`conformance client --command …`): for the
// scenario it runs (MCP_CONFORMANCE_SCENARIO, its data in MCP_CONFORMANCE_CONTEXT), it runs the real
// `agentstep mcp` against the suite's server (the url, its last argument) as a user would: the tool
// the scenario expects called through --mcp, or an agent file whose server has the scenario's OAuth
// client credentials. Exits with the binary's exit code. Plain Node ESM: it runs on Node 20.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../packages/cli/bin/agentstep.js', import.meta.url));
const SERVER = 'conformance';

/** The environment variables the agent file's oauth secrets name. */
const CLIENT_SECRET_VARIABLE = 'CONFORMANCE_CLIENT_SECRET';
const PRIVATE_KEY_VARIABLE = 'CONFORMANCE_PRIVATE_KEY';

/** `agentstep mcp call` of one tool of the server at `url`. */
const call = (tool, args) => (url) => ({
  args: [
    'mcp',
    'call',
    `${SERVER}__${tool}`,
    ...(args ? ['--args', JSON.stringify(args)] : []),
    '--mcp',
    `${SERVER}=${url}`,
  ],
});

/** `agentstep mcp tools` of the server at `url`, its spec in an agent file with `oauth`. */
const withOAuth = (oauthOf) => async (url, context, folder) => {
  const { oauth, env } = oauthOf(context);
  const spec = { url, oauth: { issuer: await issuerOf(url), clientId: context.client_id, ...oauth } };
  const file = join(folder, 'agent.mjs');
  writeFileSync(
    file,
    `export default ${JSON.stringify({ name: 'conformance', mcpServers: { [SERVER]: spec } })};\n`,
  );
  return { args: ['mcp', 'tools', '--agent', file], env };
};

/** `agentstep mcp tools` of the server at `url`, as a turn's first step lists them: what any other scenario runs. */
const listTools = (url) => ({ args: ['mcp', 'tools', '--mcp', `${SERVER}=${url}`] });

/** What each scenario runs, but for {@link listTools}. */
const SCENARIOS = {
  tools_call: call('add_numbers', { a: 5, b: 3 }),
  'sse-retry': call('test_reconnection'),
  'elicitation-sep1034-client-defaults': call('test_client_elicitation_defaults'),
  'auth/client-credentials-basic': withOAuth((context) => ({
    oauth: { clientSecret: { secret: CLIENT_SECRET_VARIABLE } },
    env: { [CLIENT_SECRET_VARIABLE]: context.client_secret },
  })),
  'auth/client-credentials-jwt': withOAuth((context) => ({
    oauth: { privateKey: { secret: PRIVATE_KEY_VARIABLE }, algorithm: context.signing_algorithm },
    env: { [PRIVATE_KEY_VARIABLE]: context.private_key_pem },
  })),
};

/**
 * The authorization server the MCP server at `url` names in its protected resource metadata
 * (RFC 9728): what an operator looks up once to write the agent file's `oauth.issuer`.
 */
async function issuerOf(url) {
  const { origin, pathname } = new URL(url);
  const response = await fetch(`${origin}/.well-known/oauth-protected-resource${pathname}`);
  const [issuer] = (await response.json()).authorization_servers ?? [];
  if (typeof issuer !== 'string') throw new Error(`${url} names no authorization server in its metadata.`);
  return issuer;
}

function run({ args, env = {} }, cwd) {
  return new Promise((settle, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.once('error', fail);
    child.once('close', (code) => settle(code ?? 1));
  });
}

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
// A folder of its own: no agent.ts of the working directory is read, and the agent file goes there.
const folder = mkdtempSync(join(tmpdir(), 'agentstep-mcp-conformance-'));
try {
  const command = await (SCENARIOS[scenario] ?? listTools)(url, context, folder);
  process.exitCode = await run(command, folder);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
