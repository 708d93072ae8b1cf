import { tenantTag } from '@agentstep/runtime';
import {
  ErrorCode,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  McpError,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiDeps } from './api-deps.js';
import { isPublicSessionId } from './ids.js';
import { sessionSummary } from './session-summary.js';
import { storedSession } from './tenants.js';

/** MCP's code for a resource that does not exist (the specification's, not the SDK's enum). */
const RESOURCE_NOT_FOUND = -32002;

/** How many sessions one page of `resources/list` holds. */
const PAGE = 100;

const SCHEME = 'agentstep://sessions/';
const MIME_TYPE = 'application/json';

/**
 * A tenant's sessions as MCP resources, `agentstep://sessions/{session}`: `resources/list` pages
 * through them newest first (from the directory alone: no log is read), the template names the
 * shape, and `resources/read` answers a session's summary as `get_session` does. Another tenant's
 * session, or a URI of another shape, is not found (`-32002`).
 */
export class McpSessionResources {
  readonly #deps: ApiDeps;
  readonly #tenant: string;

  constructor(deps: ApiDeps, tenant: string) {
    this.#deps = deps;
    this.#tenant = tenant;
  }

  /** One page of the tenant's sessions, from `cursor` (the previous page's `nextCursor`). */
  async list(cursor: string | undefined): Promise<ListResourcesResult> {
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isSafeInteger(start) || start < 0)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params for resources/list: cursor "${cursor}" is not one this server gave.`,
      );
    const entries = await this.#deps.directory.list(tenantTag(this.#tenant), 'session');
    const page = entries.slice(start, start + PAGE);
    const resources = page.map(({ id, createdAt }) => ({
      uri: `${SCHEME}${id}`,
      name: id,
      title: `Session ${id}`,
      description: `Created ${new Date(createdAt).toISOString()}: its status, turns, last turn and usage.`,
      mimeType: MIME_TYPE,
    }));
    const next = start + PAGE;
    return { resources, ...(next < entries.length ? { nextCursor: String(next) } : {}) };
  }

  /** The shape of a session's URI. */
  templates(): ListResourceTemplatesResult {
    return {
      resourceTemplates: [
        {
          uriTemplate: `${SCHEME}{session}`,
          name: 'session',
          title: 'A session',
          description: 'One of your sessions, as ask returned it: its status, turns, last turn and usage.',
          mimeType: MIME_TYPE,
        },
      ],
    };
  }

  /** A session's summary as JSON text, or `-32002` when it is not one of the tenant's sessions. */
  async read(uri: string): Promise<ReadResourceResult> {
    const session = uri.startsWith(SCHEME) ? decoded(uri.slice(SCHEME.length)) : undefined;
    if (session === undefined || !isPublicSessionId(session)) throw notFound(uri);
    const stored = storedSession(this.#tenant, session);
    const events = await this.#deps.log.read(stored);
    if (events.length === 0) throw notFound(uri);
    const summary = await sessionSummary({ id: session, stored, events }, this.#deps);
    return { contents: [{ uri, mimeType: MIME_TYPE, text: JSON.stringify(summary) }] };
  }
}

function notFound(uri: string): McpError {
  return new McpError(
    RESOURCE_NOT_FOUND,
    `Resource ${uri} not found: resources/list names your sessions as ${SCHEME}{session}.`,
    { uri },
  );
}

/** A URI's part decoded; undefined when its escapes are not UTF-8 (it names no session). */
function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
