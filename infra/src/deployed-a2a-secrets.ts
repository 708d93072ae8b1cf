import type { AgentFileA2aAgent } from './load-agent-file.js';

/**
 * The secrets (names or ARNs, each once) the headers of an agent's remote A2A agents name, for the
 * tools function, which sends them messages. Throws, naming the remote agent and what to do, for a
 * plain `http://` url: it would send its headers (its secrets) and every message unencrypted from
 * Lambda.
 */
export function deployedA2aSecrets(agents: readonly AgentFileA2aAgent[]): string[] {
  for (const { name, url } of agents)
    if (!url.startsWith('https://'))
      throw new Error(
        `AgentStep prop agent: the remote A2A agent ${name} has a plain HTTP url (${new URL(url).origin}), which would send its headers and messages unencrypted from Lambda: give it an https:// url, or leave it to agentstep run/serve.`,
      );
  return [...new Set(agents.flatMap((agent) => agent.secrets))];
}
