import type { SecretLookup } from '@agentstep/runtime/mcp';
import { secretText } from './secret-text.js';

/**
 * How a deployed function reads the secrets an agent's MCP servers name (`{secret: NAME}`, in their
 * headers or their `oauth` credential): the Secrets Manager secret of that name or ARN, as given,
 * its plain-text value the header's (after its `prefix`) or the credential. One that cannot be read throws, naming it: that server's tools are then listed as
 * a problem and its calls fail, saying so.
 */
export const mcpSecretOf: SecretLookup = (secretId) => secretText(secretId, 'MCP server credential');
