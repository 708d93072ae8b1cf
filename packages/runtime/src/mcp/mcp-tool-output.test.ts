import { describe, expect, it } from 'vitest';
import { mcpToolOutput } from './mcp-tool-output.js';

describe('mcpToolOutput', () => {
  it('joins text parts with newlines and summarizes images, audio and resources', () => {
    const output = mcpToolOutput({
      content: [
        { type: 'text', text: 'two files:' },
        { type: 'image', data: Buffer.from('12345').toString('base64'), mimeType: 'image/png' },
        { type: 'audio', data: Buffer.from('123').toString('base64'), mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'héllo' } },
        { type: 'resource', resource: { uri: 'file:///b.gz', blob: Buffer.from('1234').toString('base64') } },
        { type: 'resource_link', uri: 'file:///c.md', name: 'c', mimeType: 'text/markdown', size: 42 },
        { type: 'resource_link', uri: 'file:///d', name: 'd' },
      ],
    });
    expect(output).toBe(
      [
        'two files:',
        '[image image/png, 5 bytes]',
        '[audio audio/wav, 3 bytes]',
        '[resource file:///a.txt (text/plain), 6 bytes]',
        '[resource file:///b.gz, 4 bytes]',
        '[resource file:///c.md (text/markdown), 42 bytes]',
        '[resource file:///d]',
      ].join('\n'),
    );
  });

  it('returns structured content as the object', () => {
    const structuredContent = { temperature: 20, conditions: ['dry'] };
    expect(
      mcpToolOutput({ content: [{ type: 'text', text: '{"temperature":20}' }], structuredContent }),
    ).toBe(structuredContent);
  });

  it('throws the text of an error result', () => {
    const error = { isError: true, content: [{ type: 'text' as const, text: 'no such repository' }] };
    expect(() => mcpToolOutput(error)).toThrow('no such repository');
    expect(() => mcpToolOutput({ isError: true, content: [] })).toThrow(
      'The MCP tool reported an error and said nothing more.',
    );
  });
});
