import * as z from 'zod';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { Workspace } from './workspace.js';

const DEFAULT_READ_LIMIT = 100_000;

/**
 * The workspace tools, `read`, `write` and `list`, on the session's own files. `read` takes an
 * offset and a limit in bytes of the file's UTF-8 text and reads only that window, so the model
 * can page through a file of any size; `write` runs alone in its batch, so that each write is
 * counted against the session's quota after the one before it.
 */
export function workspaceTools(workspace: () => Workspace): Tool[] {
  return [
    defineTool({
      name: 'read',
      description:
        'Reads a text file of the session workspace: up to limit bytes from offset (bytes of its UTF-8 text), whole characters only. total_bytes is the file size; next_offset, when present, is where the next page starts.',
      input: z.object({
        file: z.string().describe('Path relative to the workspace, such as "notes/todo.md"'),
        offset: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(1_000_000).optional(),
      }),
      idempotent: true,
      handler: async ({ file, offset = 0, limit = DEFAULT_READ_LIMIT }, { session }) => {
        const page = await workspace().read(session, file, { offset, limit });
        return {
          content: page.content,
          offset: page.offset,
          total_bytes: page.size,
          ...(page.nextOffset === undefined ? {} : { next_offset: page.nextOffset }),
        };
      },
    }),
    defineTool({
      name: 'write',
      description:
        'Creates or replaces a text file in the session workspace, within its quota of files and bytes.',
      input: z.object({ file: z.string(), content: z.string() }),
      sequential: true,
      // Another delivery of the call writes the same content to the same file: one effect.
      idempotent: true,
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
      idempotent: true,
      handler: ({ folder = '' }, { session }) => workspace().list(session, folder),
    }),
  ];
}
