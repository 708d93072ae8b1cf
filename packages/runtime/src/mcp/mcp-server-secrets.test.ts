import { describe, expect, it } from 'vitest';
import { mcpServerSecrets } from './mcp-server-secrets.js';

describe('mcpServerSecrets', () => {
  it("names each secret of the headers and of the oauth credential once, and no header's text", () => {
    const issuer = 'https://login.example.com';
    expect(
      mcpServerSecrets({
        headers: {
          'X-Key': { secret: 'mcp/key', prefix: 'Key ' },
          'X-Again': { secret: 'mcp/key' },
          'X-Team': 'core',
        },
        oauth: { issuer, clientId: 'agent', clientSecret: { secret: 'mcp/client-secret' } },
      }),
    ).toEqual(['mcp/key', 'mcp/client-secret']);
    expect(
      mcpServerSecrets({ oauth: { issuer, clientId: 'agent', privateKey: { secret: 'mcp/key.pem' } } }),
    ).toEqual(['mcp/key.pem']);
    expect(mcpServerSecrets({})).toEqual([]);
  });
});
