import type { McpServerSpec } from './mcp-server-spec.js';

/**
 * The secrets (names or ARNs) an MCP server's spec reads, each once: those its headers name and
 * its OAuth credential's. A deployment grants its functions read access to exactly these.
 */
export function mcpServerSecrets(spec: Pick<McpServerSpec, 'headers' | 'oauth'>): string[] {
  const headers = Object.values(spec.headers ?? {}).flatMap((value) =>
    typeof value === 'string' ? [] : [value.secret],
  );
  const { clientSecret, privateKey } = spec.oauth ?? {};
  const oauth = [clientSecret, privateKey].flatMap((credential) => (credential ? [credential.secret] : []));
  return [...new Set([...headers, ...oauth])];
}
