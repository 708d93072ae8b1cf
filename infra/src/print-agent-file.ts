/**
 * Run by `loadAgentFile` in a process of its own, under tsx (the loader `agentstep` runs agent files
 * with): imports the agent file its argument names (absolute), checks its default export as an
 * agent, and prints on its last line of output, as JSON, `{"settings": …}` (what synthesis needs:
 * the agent's data fields and its providers' names) or `{"error": "…"}` (one line, no stack); then
 * exits, whatever handles the agent's modules left open.
 */
import { pathToFileURL } from 'node:url';
// biome-ignore lint/style/noRestrictedImports: this script runs in its own process at synthesis to load the user's agent as the CLI does; the constructs never import the runtime.
import { type Agent, checkedAgent, moduleDefault, versionedTool } from '@agentstep/runtime';
// biome-ignore lint/style/noRestrictedImports: as above; which secrets a server reads is the runtime's to say.
import { mcpServerSecrets } from '@agentstep/runtime/mcp';
import type { AgentFileA2aAgent, AgentFileMcpServer, AgentFileSettings } from './load-agent-file.js';

/**
 * The agent's fields synthesis reads (its name among them), its providers by name (their code is bundled, not printed),
 * its MCP servers and remote A2A agents by url and the names of the secrets they read, its own tools as its version counts them.
 */
function settingsOf(agent: Agent): AgentFileSettings {
  const { model, modelProfiles, instructions, toolsets, fetchHosts, approvals, approvalTimeoutSeconds } =
    agent;
  const { budget, limits, context, maxConcurrency, prices, script, lambdaTools } = agent;
  return {
    name: agent.name,
    model,
    modelProfiles,
    toolsets,
    fetchHosts,
    approvals,
    budget,
    limits,
    context,
    lambdaTools,
    ...(instructions === undefined ? {} : { instructions }),
    ...(approvalTimeoutSeconds === undefined ? {} : { approvalTimeoutSeconds }),
    ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
    ...(prices === undefined ? {} : { prices }),
    ...(script === undefined ? {} : { script }),
    mcpServers: Object.fromEntries(
      Object.entries(agent.mcpServers).map(([name, server]) => [name, mcpServerOf(server)]),
    ),
    ...(agent.a2aAgents.length === 0 ? {} : { a2aAgents: agent.a2aAgents.map(a2aAgentOf) }),
    providers: agent.providers.map((provider) => provider.name),
    tools: agent.tools.map(versionedTool),
  };
}

/** A remote A2A agent's name, url and the secrets its headers read: header values stay unprinted. */
function a2aAgentOf(remote: Agent['a2aAgents'][number]): AgentFileA2aAgent {
  // Its headers are as an MCP server's: the runtime says which secrets they read.
  return { name: remote.name, url: remote.url, secrets: mcpServerSecrets(remote) };
}

/**
 * An MCP server's url and the secrets it reads (its headers' and its oauth credential's): header
 * values (maybe secret) stay unprinted.
 */
function mcpServerOf(server: Agent['mcpServers'][string]): AgentFileMcpServer {
  return {
    url: server.url,
    secrets: mcpServerSecrets(server),
    ...(server.oauth === undefined ? {} : { oauthIssuer: server.oauth.issuer }),
  };
}

async function printed(file: string): Promise<object> {
  try {
    const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
    const exported = moduleDefault(module);
    if (exported === undefined)
      return {
        error:
          "the module has no default export; export default defineAgent({ name, ... }) from '@agentstep/runtime'.",
      };
    return { settings: settingsOf(checkedAgent(exported)) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      error: message
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .join(' '),
    };
  }
}

const result = await printed(process.argv[2] ?? '');
process.stdout.write(`\n${JSON.stringify(result)}\n`, () => process.exit(0));
