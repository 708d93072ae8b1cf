import * as z from 'zod';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { Workspace } from './workspace.js';

const DEFAULT_READ_LIMIT = 100_000;

/**
 * The workspace tools, `read`, `write` and `list`, on the session's own files. `read` takes an
 * offset and a limit in characters, so the model can page through a file too large for one result.
 */
export function workspaceTools(workspace: () => Workspace): Tool[] {
  return [
    defineTool({
      name: 'read',
      description:
        'Reads a text file of the session workspace, from offset (characters) for up to limit characters.',
      input: z.object({
        file: z.string().describe('Path relative to the workspace, such as "notes/todo.md"'),
        offset: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(1_000_000).optional(),
      }),
      handler: async ({ file, offset = 0, limit = DEFAULT_READ_LIMIT }, { session }) => {
        const text = await workspace().read(session, file);
        const content = text.slice(offset, offset + limit);
        const next = offset + content.length;
        return {
          content,
          offset,
          total_characters: text.length,
          ...(next < text.length ? { next_offset: next } : {}),
        };
      },
    }),
    defineTool({
      name: 'write',
      description: 'Creates or replaces a text file in the session workspace.',
      input: z.object({ file: z.string(), content: z.string() }),
      handler: async ({ file, content }, { session }) => ({
        file,
        bytes: await workspace().write(session, file, content),
      }),
    }),
    defineTool({
      name: 'list',
      description: 'Lists the files and folders directly inside a folder of the session workspace.',
      input: z.object({
        folder: z.string().optional().describe('Folder to list; the workspace root by default'),
      }),
      handler: ({ folder = '' }, { session }) => workspace().list(session, folder),
    }),
  ];
}
