import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';

/**
 * What an MCP tool's result becomes as a call's output: its structured content (a JSON object)
 * when it has some, else its content parts as text, one a line, with images, audio and resources
 * summarized by type and size. A result the server marks as an error throws its text, which makes
 * the call a failure.
 */
export function mcpToolOutput(result: CallToolResult): unknown {
  const text = result.content.map(describePart).join('\n');
  if (result.isError) throw new Error(text || 'The MCP tool reported an error and said nothing more.');
  return result.structuredContent ?? text;
}

function describePart(part: ContentBlock): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type} ${part.mimeType}, ${base64Bytes(part.data)} bytes]`;
    case 'resource': {
      const { resource } = part;
      const bytes = 'text' in resource ? Buffer.byteLength(resource.text) : base64Bytes(resource.blob);
      return describeResource(resource.uri, resource.mimeType, bytes);
    }
    case 'resource_link':
      return describeResource(part.uri, part.mimeType, part.size);
  }
}

function describeResource(uri: string, mimeType: string | undefined, bytes: number | undefined): string {
  const type = mimeType === undefined ? '' : ` (${mimeType})`;
  const size = bytes === undefined ? '' : `, ${bytes} bytes`;
  return `[resource ${uri}${type}${size}]`;
}

function base64Bytes(data: string): number {
  return Buffer.from(data, 'base64').byteLength;
}
