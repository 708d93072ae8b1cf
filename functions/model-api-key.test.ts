import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { modelApiKey } from './model-api-key.js';

const secretsManager = mockClient(SecretsManagerClient);
// Test files share their worker's modules: the client's real send comes back for the next file.
afterAll(() => secretsManager.restore());
afterEach(() => secretsManager.reset());

describe('modelApiKey', () => {
  it('reads the key from the named secret through the Secrets Manager client', async () => {
    secretsManager
      .on(GetSecretValueCommand, { SecretId: 'agent/openai' })
      .resolves({ SecretString: 'sk-test\n' });
    expect(await modelApiKey('agent/openai')).toBe('sk-test');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('leaves the key to the provider SDK when no secret is named', async () => {
    expect(await modelApiKey(undefined)).toBeUndefined();
    expect(secretsManager.calls()).toHaveLength(0);
  });

  it('says what to fix when the secret is empty', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: '  ' });
    await expect(modelApiKey('agent/empty')).rejects.toThrow('holds no API key');
  });
});
