import { describe, expect, it } from 'vitest';
import { parseRunOptions } from './run-options.js';

describe('parseRunOptions', () => {
  it('takes named model profiles, repeated, in both spellings; a later name wins', () => {
    const options = parseRunOptions([
      '--model-profile',
      'fast=anthropic:claude-haiku-4-5',
      '--model-profile=local=openai:llama3.1',
      '--model-profile',
      'fast=scripted',
    ]);
    expect(options.modelProfiles).toEqual({ fast: 'scripted', local: 'openai:llama3.1' });
  });

  it('keeps every --mcp server, repeated; a later flag with the same name replaces the earlier one', () => {
    const options = parseRunOptions([
      '--mcp',
      'github=https://api.githubcopilot.com/mcp/',
      '--mcp=memory=stdio:npx -y @modelcontextprotocol/server-memory',
      '--mcp',
      'github=http://127.0.0.1:3001/mcp',
    ]);
    expect(options.mcpServers).toEqual({
      github: { url: 'http://127.0.0.1:3001/mcp' },
      memory: { url: 'stdio:npx -y @modelcontextprotocol/server-memory' },
    });
  });

  it('configures no profile by default', () => {
    expect(parseRunOptions([]).modelProfiles).toEqual({});
  });

  it.each([
    ['--fetch-hosts', 'docs.example.com,*.api.example'],
    ['--allow-hosts', 'docs.example.com,*.api.example'],
  ])('takes the hosts http_fetch may fetch from %s', (flag, hosts) => {
    expect(parseRunOptions([flag, hosts]).allowHosts).toEqual(['docs.example.com', '*.api.example']);
  });

  it('lets http_fetch fetch no host by default, and refuses --fetch-hosts with its old name --allow-hosts', () => {
    expect(parseRunOptions([]).allowHosts).toEqual([]);
    expect(() => parseRunOptions(['--fetch-hosts', 'a.example', '--allow-hosts', 'b.example'])).toThrow(
      '--allow-hosts is the old name of --fetch-hosts (the hosts http_fetch may fetch): give one of them, with every host.',
    );
  });

  it('takes the context window and the compaction strategy, in both spellings; none by default', () => {
    expect(parseRunOptions(['--context-window', '32000', '--compaction=drop']).context).toEqual({
      windowTokens: 32_000,
      strategy: 'drop',
    });
    expect(parseRunOptions(['--context-window=1000']).context).toEqual({ windowTokens: 1000 });
    expect(parseRunOptions([]).context).toEqual({});
  });

  it.each([
    [
      ['--context-window', '999'],
      '--context-window must be a whole number of at least 1000, received "999".',
    ],
    [['--context-window', '8000.5'], '--context-window must be a whole number, received "8000.5".'],
    [['--context-window', '1e5'], '--context-window must be a whole number, received "1e5".'],
    [['--context-window=-4000'], '--context-window must be a whole number, received "-4000".'],
    [['--compaction', 'trim'], '--compaction must be "summarize" or "drop", received "trim".'],
  ])('refuses %j, saying what it takes', (args, message) => {
    expect(() => parseRunOptions(args)).toThrow(message);
  });

  it.each([
    [
      'fast',
      '--model-profile takes NAME=MODEL, e.g. --model-profile fast=anthropic:claude-haiku-4-5; received "fast".',
    ],
    [
      '=scripted',
      '--model-profile takes NAME=MODEL, e.g. --model-profile fast=anthropic:claude-haiku-4-5; received "=scripted".',
    ],
  ])('refuses --model-profile %s', (pair, message) => {
    expect(() => parseRunOptions(['--model-profile', pair])).toThrow(message);
  });
});
