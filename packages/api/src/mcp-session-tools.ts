import { tenantTag } from '@agentstep/runtime';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { ApiDeps } from './api-deps.js';
import { sessionNotFound } from './api-error.js';
import { publicSessionIdSchema } from './ids.js';
import type { McpTool } from './mcp-tool.js';
import { sessionListItem } from './session-list-item.js';
import { sessionSummary } from './session-summary.js';
import { storedSession } from './tenants.js';

/** How many sessions `list_sessions` lists: the newest. */
const LISTED = 50;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const getInput = z.object({
  session: publicSessionIdSchema.describe('The session, as ask returned it.'),
});

/**
 * The read-only tools for `tenant`: `list_sessions {}` (the tenant's newest sessions, as
 * `GET /sessions` lists them) and `get_session {session}` (as `GET /sessions/{id}` answers; another
 * tenant's session is not found). Each answers its JSON as text and as structured content.
 */
export function mcpSessionTools(deps: ApiDeps, tenant: string): [McpTool, McpTool<typeof getInput>] {
  return [
    {
      name: 'list_sessions',
      title: 'List sessions',
      description: `Lists your ${LISTED} newest sessions, newest first: each one's status, turns, last turn, usage, and when it was created and last changed.`,
      input: z.object({}),
      annotations: READ_ONLY,
      call: async () => {
        const entries = (await deps.directory.list(tenantTag(tenant), 'session')).slice(0, LISTED);
        const sessions = await Promise.all(
          entries.map((entry) => sessionListItem(entry, storedSession(tenant, entry.id), deps)),
        );
        return jsonResult({ sessions });
      },
    },
    {
      name: 'get_session',
      title: 'Get a session',
      description: 'Where one of your sessions stands: its status, turns, last turn and usage.',
      input: getInput,
      annotations: READ_ONLY,
      call: async ({ session }) => {
        const stored = storedSession(tenant, session);
        const events = await deps.log.read(stored);
        if (events.length === 0) throw sessionNotFound(session);
        return jsonResult(await sessionSummary({ id: session, stored, events }, deps));
      },
    },
  ];
}

function jsonResult(value: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: { ...value } };
}
