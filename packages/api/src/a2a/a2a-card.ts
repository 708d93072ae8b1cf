import type { ToolDescription } from '@agentstep/protocol';
import { A2A_VERSION } from './a2a-wire.js';

/** What the agent card says of the agent and of how callers authenticate. */
export interface A2aAgentInfo {
  name: string;
  /** @default "An AgentStep agent." */
  description?: string;
  /** The agent's version (AgentStep's agent version, decision 0040). @default "0" */
  version?: string;
  /**
   * How callers authenticate, as the API checks them: `none` (no credentials), `bearer` (a bearer
   * token), `oidc` (a bearer JWT of `issuer`), `sigv4` (AWS IAM: SigV4-signed requests, which A2A
   * has no scheme for: the card's description says so).
   */
  auth: 'none' | 'bearer' | 'oidc' | 'sigv4';
  /** With `oidc`: the issuer, exactly the tokens' `iss`. */
  issuer?: string;
}

/** Where the JSON-RPC binding and the HTTP+JSON binding are served, under the API's address. */
export const A2A_PATHS = { jsonRpc: '/a2a', rest: '/a2a/rest' } as const;

/**
 * The A2A 1.0 agent card of the agent served at `base` (the API's address): its name, description
 * and version; both bindings (JSON-RPC first); streaming; a skill per tool (or one, the agent
 * itself, when it has none); and the security scheme its API checks.
 */
export function a2aAgentCard(info: A2aAgentInfo, base: string, tools: readonly ToolDescription[]) {
  const description = info.description ?? 'An AgentStep agent.';
  const interfaceAt = (path: string, protocolBinding: string) => ({
    url: `${base}${path}`,
    protocolBinding,
    protocolVersion: A2A_VERSION,
  });
  return {
    name: info.name,
    description:
      info.auth === 'sigv4' ? `${description} Requests are signed with AWS SigV4 (IAM).` : description,
    version: info.version ?? '0',
    supportedInterfaces: [
      interfaceAt(A2A_PATHS.jsonRpc, 'JSONRPC'),
      interfaceAt(A2A_PATHS.rest, 'HTTP+JSON'),
    ],
    capabilities: { streaming: true, pushNotifications: false },
    ...securityOf(info),
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills: skillsOf(info.name, description, tools),
  };
}

function securityOf({ auth, issuer }: A2aAgentInfo) {
  if (auth === 'none' || auth === 'sigv4') return {};
  const scheme =
    auth === 'oidc' && issuer !== undefined
      ? {
          openIdConnectSecurityScheme: {
            openIdConnectUrl: `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
          },
        }
      : { httpAuthSecurityScheme: { scheme: 'Bearer', ...(auth === 'oidc' ? { bearerFormat: 'JWT' } : {}) } };
  return {
    securitySchemes: { bearer: scheme },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };
}

function skillsOf(name: string, description: string, tools: readonly ToolDescription[]) {
  if (tools.length === 0) return [{ id: name, name, description, tags: ['agent'] }];
  return tools.map((tool) => ({
    id: tool.name,
    name: tool.name,
    description: tool.description,
    tags: ['tool'],
  }));
}
