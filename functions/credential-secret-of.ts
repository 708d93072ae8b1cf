import type { SecretLookup } from '@agentstep/runtime/mcp';

/**
 * How a deployed function reads the secrets an agent's MCP servers and remote A2A agents name
 * (`{secret: NAME}`, in their headers or an MCP server's `oauth` credential): the Secrets Manager
 * secret of that name or ARN, as given, its plain-text value the header's (after its `prefix`) or
 * the credential. One that cannot be read throws, naming it: that server's tools are then listed as
 * a problem, or the call fails, saying so. Secrets Manager's client loads on the first read.
 */
export const credentialSecretOf: SecretLookup = async (secretId) => {
  const { secretText } = await import('./secret-text.js');
  return secretText(secretId, 'MCP or A2A credential');
};
