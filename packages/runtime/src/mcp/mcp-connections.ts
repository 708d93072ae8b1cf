import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { outcomeUnknownText } from '../steps/outcome-unknown.js';
import { checkedMcpFetch, unreadableAnswerOf } from './checked-mcp-fetch.js';
import { mcpAuthProvider } from './mcp-auth-provider.js';
import {
  DEFAULT_MCP_TIMEOUT_MS,
  hasAuthorizationHeader,
  isStdioUrl,
  type McpServerSpec,
} from './mcp-server-spec.js';
import { oauthRefusal } from './oauth-refusal.js';
import { parseStdioCommand } from './parse-stdio-command.js';
import { resolveHeaders, type SecretLookup } from './resolve-headers.js';

/** What {@link McpConnections} needs besides the servers. */
export interface McpConnectionsOptions {
  /** Reads the secrets that headers and OAuth credentials name. */
  secretOf: SecretLookup;
}

/** How one call to a server's tool is bounded. */
export interface McpCallOptions {
  /** Stops the call (the server is told it was cancelled). */
  signal?: AbortSignal;
  /** The longest the call may take. */
  timeoutMs: number;
  /** The call's stable key (decision 0031), sent as the request's `_meta.idempotencyKey`. */
  idempotencyKey?: string;
}

/** One open connection, the last thing its transport reported going wrong, and the work it runs. */
interface Connection {
  client: Client;
  trouble?: string | undefined;
  /** Calls and listings in flight on it. */
  running: number;
  /** Given up: nothing new starts on it, and it closes once nothing runs on it. */
  retired: boolean;
}

/** A connection being opened, or open. */
interface Entry {
  opening: Promise<Connection>;
  open?: Connection;
}

const CLIENT_INFO = { name: 'agentstep', version: '0.1.0' };
const STDERR_TAIL_CHARS = 2_000;

/**
 * The connections to an agent's MCP servers: one official SDK client per server, opened on first
 * use, opened anew after the transport failed, closed (stdio servers' processes with them) by
 * {@link McpConnections.close}. A connection given up is closed only once the calls running on it
 * have ended: one call's failure never ends another's.
 */
export class McpConnections {
  readonly #servers: Readonly<Record<string, McpServerSpec>>;
  readonly #secretOf: SecretLookup;
  readonly #entries = new Map<string, Entry>();
  /** Connections given up while calls still ran on them. */
  readonly #retired = new Set<Connection>();

  /** Connects to nothing yet: each server on its first use. */
  constructor(servers: Readonly<Record<string, McpServerSpec>>, options: McpConnectionsOptions) {
    this.#servers = servers;
    this.#secretOf = options.secretOf;
  }

  /**
   * Runs `use` with the connected client of a server, connecting first if need be. Throws `MCP
   * server NAME (URL) could not be reached: …` (with the cause) when it cannot connect; the next
   * use tries again. A request that never reached the server runs once more on a new connection:
   * the connection had closed, the server refused the TCP connection, or it no longer knows the
   * session (it restarted, or expired it: HTTP 404, or 400 from some servers).
   */
  async withClient<T>(name: string, use: (client: Client) => Promise<T>): Promise<T> {
    return this.#use(name, (connection) => use(connection.client));
  }

  /**
   * Calls one of a server's tools; its result is read as an MCP tool result and nothing more (an
   * output schema the server once listed is not checked). A call that never reached the server is
   * tried once more on a new connection (see {@link withClient}), then fails `MCP server NAME could
   * not be reached: …`. An error the server answers with throws `MCP server NAME refused the call:
   * …`. A call that reached the server and has no answer that can be read may have run: one whose
   * answer is malformed throws `outcome unknown: MCP server NAME answered the call with something
   * that is not an MCP tool result; …`, one that got no answer within its time, or whose answer was
   * cut off, `outcome unknown: MCP server NAME stopped answering after the call was sent: …`. Either
   * fails that call alone. A result the server marks as an error is returned as it came.
   */
  async callTool(
    name: string,
    tool: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<CallToolResult> {
    return this.#use(name, async (connection, retried) => {
      try {
        const params = {
          name: tool,
          arguments: args,
          ...(options.idempotencyKey ? { _meta: { idempotencyKey: options.idempotencyKey } } : {}),
        };
        const result = await connection.client.request(
          { method: 'tools/call', params },
          CallToolResultSchema,
          {
            timeout: options.timeoutMs,
            ...(options.signal ? { signal: options.signal } : {}),
          },
        );
        connection.trouble = undefined;
        return result;
      } catch (error) {
        if (options.signal?.aborted || (isUnsent(error) && !retried)) throw error;
        throw this.#failure(name, connection, error);
      }
    });
  }

  /** Closes every connection; stdio servers' processes end. */
  async close(): Promise<void> {
    const entries = [...this.#entries.values()];
    const retired = [...this.#retired];
    this.#entries.clear();
    this.#retired.clear();
    await Promise.all([
      ...entries.map(async ({ opening }) => {
        const connection = await opening.catch(() => undefined);
        await connection?.client.close();
      }),
      ...retired.map(({ client }) => client.close()),
    ]);
  }

  async #use<T>(name: string, use: (connection: Connection, retried: boolean) => Promise<T>): Promise<T> {
    const connection = await this.#connection(name);
    try {
      // Closed since it was opened (a stdio server that exited): nothing is sent on it.
      if (connection.client.transport === undefined) throw new NotSentError();
      return await this.#running(connection, () => use(connection, false));
    } catch (error) {
      if (!isUnsent(error)) throw error;
      this.#retire(name, connection);
      const fresh = await this.#connection(name);
      return this.#running(fresh, () => use(fresh, true));
    }
  }

  /** Runs `work` on `connection`, which closes when it ends if it was given up meanwhile. */
  async #running<T>(connection: Connection, work: () => Promise<T>): Promise<T> {
    connection.running += 1;
    try {
      return await work();
    } finally {
      connection.running -= 1;
      if (connection.retired && connection.running === 0) this.#closeRetired(connection);
    }
  }

  /** The error of a call that got no result it can return; gives the connection up if its transport failed. */
  #failure(name: string, connection: Connection, error: unknown): Error {
    // A token that expired and could not be renewed: the call was not sent again.
    const refused = this.#oauthRefusal(name, error);
    if (refused !== undefined)
      return new Error(`MCP server ${name} could not be reached: ${refused}`, { cause: error });
    const unreadable = unreadableAnswerOf(error);
    const said = unreadable === 'lost' ? 'its answer was cut off' : messageOf(error);
    if (unreadable === 'malformed' || isSchemaMismatch(error))
      return new Error(
        outcomeUnknownText(
          `MCP server ${name} answered the call with something that is not an MCP tool result; it may have run the tool.`,
        ),
        { cause: error },
      );
    if (unreadable === undefined && (isAnswer(error) || isHttpRefusal(error)))
      return new Error(`MCP server ${name} refused the call: ${said}`, { cause: error });
    if (isUnsent(error))
      return new Error(`MCP server ${name} could not be reached: ${said}`, { cause: error });
    const { trouble } = connection;
    if (trouble !== undefined) this.#retire(name, connection);
    const reported =
      trouble === undefined || trouble === said ? '' : ` (the connection reported: ${trouble})`;
    return new Error(
      outcomeUnknownText(
        `MCP server ${name} stopped answering after the call was sent: ${said}${reported}; it may have run the tool.`,
      ),
      { cause: error },
    );
  }

  #connection(name: string): Promise<Connection> {
    const existing = this.#entries.get(name);
    if (existing) return existing.opening;
    const entry: Entry = { opening: this.#connect(name) };
    this.#entries.set(name, entry);
    entry.opening.then(
      (connection) => {
        entry.open = connection;
      },
      () => {
        if (this.#entries.get(name) === entry) this.#entries.delete(name);
      },
    );
    return entry.opening;
  }

  async #connect(name: string): Promise<Connection> {
    const spec = this.#servers[name];
    if (!spec) {
      const known = Object.keys(this.#servers).join(', ') || 'none';
      throw new Error(`No MCP server is named "${name}" (servers: ${known}).`);
    }
    const transport = await this.#transport(spec).catch((error: unknown) => {
      throw new Error(`MCP server ${name}: ${messageOf(error)}`, { cause: error });
    });
    const client = new Client(CLIENT_INFO);
    const connection: Connection = { client, running: 0, retired: false };
    client.onerror = (error) => {
      // A message that is not JSON-RPC (a stdio server's stray line), or the late answer of a call
      // that timed out, says nothing of the transport.
      if (isUnparsedMessage(error) || isLateAnswer(error)) return;
      connection.trouble = `${messageOf(error)}${stderrTail(transport)}`;
    };
    client.onclose = () => {
      connection.trouble ??= `the connection closed${stderrTail(transport)}`;
      this.#retire(name, connection);
    };
    try {
      await client.connect(transport, { timeout: spec.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS });
    } catch (error) {
      await client.close().catch(() => undefined);
      const why = this.#oauthRefusal(name, error) ?? `${messageOf(error)}${authHint(spec, error)}`;
      throw new Error(
        `MCP server ${name} (${shownUrl(spec.url)}) could not be reached: ${why}${stderrTail(transport)}`,
        { cause: error },
      );
    }
    return connection;
  }

  /** Why the server's authorization server refused it a token, when that is what `error` reports. */
  #oauthRefusal(name: string, error: unknown): string | undefined {
    const issuer = this.#servers[name]?.oauth?.issuer;
    return issuer === undefined ? undefined : oauthRefusal(error, issuer);
  }

  async #transport(spec: McpServerSpec): Promise<Transport> {
    if (isStdioUrl(spec.url)) {
      const transport = new StdioClientTransport({
        ...parseStdioCommand(spec.url),
        env: inheritedEnvironment(),
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        const tail = (stderrTails.get(transport) ?? '') + chunk.toString();
        stderrTails.set(transport, tail.slice(-STDERR_TAIL_CHARS));
      });
      return transport;
    }
    const [headers, authProvider] = await Promise.all([
      resolveHeaders(spec, this.#secretOf),
      spec.oauth && mcpAuthProvider(spec.oauth, this.#secretOf),
    ]);
    return new StreamableHTTPClientTransport(new URL(spec.url), {
      requestInit: { headers },
      fetch: checkedMcpFetch(),
      ...(authProvider ? { authProvider } : {}),
    });
  }

  /** Gives a connection up: the next use opens another; it closes once nothing runs on it. */
  #retire(name: string, connection: Connection): void {
    if (this.#entries.get(name)?.open === connection) this.#entries.delete(name);
    if (connection.retired) return;
    connection.retired = true;
    if (connection.running === 0) void connection.client.close().catch(() => undefined);
    else this.#retired.add(connection);
  }

  #closeRetired(connection: Connection): void {
    this.#retired.delete(connection);
    void connection.client.close().catch(() => undefined);
  }
}

/** What each stdio server last wrote to stderr (read as it comes, so its pipe never fills). */
const stderrTails = new WeakMap<Transport, string>();

/** The last lines a stdio server wrote to stderr, to show beside its failure. */
function stderrTail(transport: Transport): string {
  if (!(transport instanceof StdioClientTransport)) return '';
  const tail = stderrTails.get(transport)?.trim();
  return tail ? ` (its stderr ended: ${tail})` : '';
}

/**
 * The whole environment of this process, as a command run from its shell would get: a local
 * server often reads its token from an environment variable.
 */
function inheritedEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** A request that was not sent: its connection had closed. */
class NotSentError extends Error {
  constructor() {
    super('the connection had closed');
  }
}

/** Errors of opening a TCP connection: a request that fails with one never left. */
const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * The request never reached the server, or never ran there (see {@link McpConnections.withClient}):
 * its connection had closed, the TCP connection could not be opened, or the server answered that it
 * does not know the session.
 */
function isUnsent(error: unknown): boolean {
  if (error instanceof NotSentError) return true;
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof StreamableHTTPError && (cause.code === 404 || cause.code === 400)) return true;
    const { code } = cause as { code?: unknown };
    if (typeof code === 'string' && CONNECT_FAILURES.has(code)) return true;
  }
  return false;
}

/** An error the server sent back, as opposed to one of getting no answer. */
function isAnswer(error: unknown): boolean {
  return (
    error instanceof McpError &&
    error.code !== ErrorCode.RequestTimeout &&
    error.code !== ErrorCode.ConnectionClosed
  );
}

/** The server refused the HTTP request itself (a 4xx status): the call did not run. */
function isHttpRefusal(error: unknown): boolean {
  const status = error instanceof StreamableHTTPError ? (error.code ?? 0) : 0;
  return status >= 400 && status < 500;
}

/** An answer that is JSON-RPC but not an MCP tool result (the SDK's schema refused it). */
function isSchemaMismatch(error: unknown): boolean {
  return error instanceof z.core.$ZodError;
}

/** The SDK's report of an answer to no pending request (one that timed out or was cancelled). */
function isLateAnswer(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('Received a response for an unknown message ID');
}

/** A message the transport could not parse: not JSON, or not JSON-RPC. */
function isUnparsedMessage(error: unknown): boolean {
  return error instanceof SyntaxError || isSchemaMismatch(error);
}

/** What to do about a server that asks for authorization (401) when its spec gives none. */
function authHint(spec: McpServerSpec, error: unknown): string {
  const asked = error instanceof StreamableHTTPError && error.code === 401;
  return asked && spec.oauth === undefined && !hasAuthorizationHeader(spec.headers)
    ? '; it asks for authorization (HTTP 401): give the server oauth (client credentials) or an Authorization header'
    : '';
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const said = error.message || error.name;
  // fetch says only `fetch failed`: why (refused, reset, closed) is its cause's.
  return said === 'fetch failed' && error.cause instanceof Error ? `${said} (${error.cause.message})` : said;
}

/**
 * A server's url as messages show it: a stdio command by its program, an HTTP url by its origin
 * (arguments, a path or a query may hold a token).
 */
function shownUrl(url: string): string {
  return isStdioUrl(url) ? `stdio:${parseStdioCommand(url).command} …` : new URL(url).origin;
}
