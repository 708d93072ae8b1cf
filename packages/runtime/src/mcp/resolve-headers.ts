import type { McpServerSpec } from './mcp-server-spec.js';
import { requiredSecret } from './required-secret.js';

/** Looks a secret up by name: an environment variable locally, Secrets Manager when deployed. */
export type SecretLookup = (name: string) => Promise<string | undefined>;

/**
 * The HTTP headers of an MCP server (or of what `owner` names: `A2A agent research`) with every
 * secret read through `secretOf`. Throws, naming the header and the secret, when a secret has no value.
 */
export async function resolveHeaders(
  spec: Pick<McpServerSpec, 'headers'>,
  secretOf: SecretLookup,
  owner = 'MCP',
): Promise<Record<string, string>> {
  const entries = Object.entries(spec.headers ?? {}).map(async ([header, value]) => {
    if (typeof value === 'string') return [header, value] as const;
    const secret = await requiredSecret(secretOf, value.secret, `The ${owner} header ${header}`);
    return [header, `${value.prefix ?? ''}${secret}`] as const;
  });
  return Object.fromEntries(await Promise.all(entries));
}
