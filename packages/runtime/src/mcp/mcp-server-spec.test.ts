import { describe, expect, it } from 'vitest';
import { mcpServerNameSchema, mcpServerSpecSchema } from './mcp-server-spec.js';

const problems = (value: unknown) =>
  mcpServerSpecSchema
    .safeParse(value)
    .error?.issues.map(({ path, message }) => `${path.join('.')}: ${message}`);

describe('mcpServerSpecSchema', () => {
  it('takes an HTTP server with secret headers, an allowlist, approvals and a time limit', () => {
    const spec = {
      url: 'https://api.example.com/mcp',
      headers: { Authorization: { secret: 'GITHUB_TOKEN', prefix: 'Bearer ' }, 'X-Team': 'core' },
      tools: ['search'],
      approval: ['delete'],
      timeoutMs: 5_000,
    };
    expect(mcpServerSpecSchema.parse(spec)).toEqual(spec);
    expect(mcpServerSpecSchema.parse({ url: "stdio:npx -y '@scope/server'", approval: true })).toBeTruthy();
  });

  it('refuses other urls, stdio servers with headers, open quotes and unknown fields', () => {
    expect(problems({ url: 'ftp://example.com' })).toEqual([
      'url: an MCP server url is http(s)://… (streamable HTTP) or stdio:COMMAND ARGS… (local only)',
    ]);
    expect(problems({ url: 'stdio:server', headers: { A: 'b' } })).toEqual([
      'headers: headers apply to HTTP servers only: a stdio: server takes none',
    ]);
    expect(problems({ url: "stdio:server 'x" })).toEqual([
      `url: "stdio:server 'x" leaves a ' quote open: close it.`,
    ]);
    expect(problems({ url: 'https://example.com/mcp', allow: ['x'] })).toEqual([
      ': Unrecognized key: "allow"',
    ]);
  });
});

describe('mcpServerNameSchema', () => {
  it('takes 1–32 letters, digits, "_" or "-", starting as a tool name may', () => {
    expect(mcpServerNameSchema.safeParse('git-hub_2').success).toBe(true);
    expect(mcpServerNameSchema.safeParse('_local').success).toBe(true);
    expect(mcpServerNameSchema.safeParse('2fa').success).toBe(false);
    expect(mcpServerNameSchema.safeParse('-x').success).toBe(false);
    expect(mcpServerNameSchema.safeParse('a'.repeat(33)).success).toBe(false);
    expect(mcpServerNameSchema.safeParse('git.hub').success).toBe(false);
  });
});
