import type { SecretLookup } from '@agentstep/runtime/mcp';
import { secretText } from './secret-text.js';

/**
 * How a deployed function reads the secrets an agent's MCP server headers name (`{secret: NAME}`):
 * the Secrets Manager secret of that name or ARN, as given, its plain-text value the header's (after
 * its `prefix`). One that cannot be read throws, naming it: that server's tools are then listed as
 * a problem and its calls fail, saying so.
 */
export const mcpSecretOf: SecretLookup = (secretId) => secretText(secretId, 'MCP header value');
