import { describe, expect, it } from 'vitest';
import { resolveHeaders } from './resolve-headers.js';

const secrets: Record<string, string> = { GITHUB_TOKEN: 'ghp_123' };
const secretOf = async (name: string) => secrets[name];

describe('resolveHeaders', () => {
  it('reads secrets by name and puts their prefix before them', async () => {
    const headers = {
      Authorization: { secret: 'GITHUB_TOKEN', prefix: 'Bearer ' },
      'X-Raw': { secret: 'GITHUB_TOKEN' },
      'X-Team': 'core',
    };
    expect(await resolveHeaders({ headers }, secretOf)).toEqual({
      Authorization: 'Bearer ghp_123',
      'X-Raw': 'ghp_123',
      'X-Team': 'core',
    });
  });

  it('names the header and the secret that has no value', async () => {
    await expect(
      resolveHeaders({ headers: { Authorization: { secret: 'MISSING_TOKEN' } } }, secretOf),
    ).rejects.toThrow(
      'The MCP header Authorization needs the secret "MISSING_TOKEN", which has no value: set it (an environment variable locally, a Secrets Manager secret when deployed).',
    );
  });
});
