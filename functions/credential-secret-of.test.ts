import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { credentialSecretOf } from './credential-secret-of.js';

const secretsManager = mockClient(SecretsManagerClient);
// Test files share their worker's modules: the client's real send comes back for the next file.
afterAll(() => secretsManager.restore());
afterEach(() => secretsManager.reset());

// Powertools caches each secret for the warm function: every test reads secrets of its own.
describe('credentialSecretOf', () => {
  it('reads the secret a header names, by name, once per warm function within the cache', async () => {
    secretsManager
      .on(GetSecretValueCommand, { SecretId: 'mcp/github-token' })
      .resolves({ SecretString: 'ghp_test\n' });
    expect(await credentialSecretOf('mcp/github-token')).toBe('ghp_test');
    expect(await credentialSecretOf('mcp/github-token')).toBe('ghp_test');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('reads a secret named by its ARN as given', async () => {
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:mcp/linear-AbCdEf';
    secretsManager.on(GetSecretValueCommand, { SecretId: arn }).resolves({ SecretString: 'lin_test' });
    expect(await credentialSecretOf(arn)).toBe('lin_test');
  });

  it('names the secret and what to check when it cannot be read', async () => {
    secretsManager.on(GetSecretValueCommand).rejects(
      new ResourceNotFoundException({
        message: "Secrets Manager can't find the specified secret.",
        $metadata: {},
      }),
    );
    const read = credentialSecretOf('mcp/missing');
    await expect(read).rejects.toThrow(
      "Could not read the secret mcp/missing (the MCP or A2A credential) from Secrets Manager: Secrets Manager can't find the specified secret. Create it in this function's account and region, or check that the deployment grants this function read access to it.",
    );
    await expect(read).rejects.toHaveProperty('cause');
  });

  it('says what to fix when the secret holds no text', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: '  ' });
    await expect(credentialSecretOf('mcp/empty')).rejects.toThrow(
      'The secret mcp/empty holds no MCP or A2A credential: store the MCP or A2A credential as its plain-text value.',
    );
  });
});
