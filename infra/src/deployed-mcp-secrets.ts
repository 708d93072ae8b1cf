import type { AgentFileMcpServer } from './load-agent-file.js';

/**
 * The secrets (names or ARNs, each once) that an agent's MCP servers read (their headers', their
 * oauth credentials'), for the functions that reach those servers from Lambda. Throws, naming the server and what to do, when
 * one could not run deployed: a local command (`stdio:`), or plain `http://`, which would send
 * its headers (its secrets) and every call unencrypted.
 */
export function deployedMcpSecrets(servers: Readonly<Record<string, AgentFileMcpServer>>): string[] {
  for (const [name, { url, oauthIssuer }] of Object.entries(servers)) {
    refuseUndeployable(name, url);
    if (oauthIssuer !== undefined && !oauthIssuer.startsWith('https://'))
      throw new Error(
        `AgentStep prop agent: the MCP server ${name} gets its tokens from a plain HTTP issuer (${new URL(oauthIssuer).origin}), which would send its client credentials unencrypted from Lambda: give oauth.issuer an https:// url.`,
      );
  }
  return [...new Set(Object.values(servers).flatMap((server) => server.secrets))];
}

function refuseUndeployable(name: string, url: string): void {
  if (url.startsWith('stdio:')) {
    throw new Error(
      `AgentStep prop agent: the MCP server ${name} runs a local command (${url}), which cannot run on Lambda: give it an https:// url, or leave it to agentstep run/serve.`,
    );
  }
  if (!url.startsWith('https://')) {
    throw new Error(
      `AgentStep prop agent: the MCP server ${name} has a plain HTTP url (${new URL(url).origin}), which would send its headers and calls unencrypted from Lambda: give it an https:// url.`,
    );
  }
}
