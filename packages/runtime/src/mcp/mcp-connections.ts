import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MCP_TIMEOUT_MS, isStdioUrl, type McpServerSpec } from './mcp-server-spec.js';
import { parseStdioCommand } from './parse-stdio-command.js';
import { resolveHeaders, type SecretLookup } from './resolve-headers.js';

/** What {@link McpConnections} needs besides the servers. */
export interface McpConnectionsOptions {
  /** Reads the secrets that headers name. */
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

/** One open connection, and the last thing its transport reported going wrong. */
interface Connection {
  client: Client;
  trouble?: string | undefined;
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
 * {@link McpConnections.close}.
 */
export class McpConnections {
  readonly #servers: Readonly<Record<string, McpServerSpec>>;
  readonly #secretOf: SecretLookup;
  readonly #entries = new Map<string, Entry>();

  /** Connects to nothing yet: each server on its first use. */
  constructor(servers: Readonly<Record<string, McpServerSpec>>, options: McpConnectionsOptions) {
    this.#servers = servers;
    this.#secretOf = options.secretOf;
  }

  /**
   * Runs `use` with the connected client of a server, connecting first if need be. Throws `MCP
   * server NAME (URL) could not be reached: …` (with the cause) when it cannot connect; the next
   * use tries again. When the server no longer knows the session (it restarted, or expired it: HTTP
   * 404, or 400 from some servers), `use` runs once more on a new session: such a request never ran.
   */
  async withClient<T>(name: string, use: (client: Client) => Promise<T>): Promise<T> {
    return this.#use(name, (connection) => use(connection.client));
  }

  /**
   * Calls one of a server's tools. A call that gets no answer within its time, or whose connection
   * is lost, throws `MCP server NAME stopped answering: …`; a lost connection is opened anew on the
   * next use. An error the server answers with throws `MCP server NAME refused the call: …`. A
   * result the server marks as an error is returned as it came.
   */
  async callTool(
    name: string,
    tool: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<CallToolResult> {
    return this.#use(name, async (connection, retried) => {
      try {
        const result = await connection.client.callTool(
          {
            name: tool,
            arguments: args,
            ...(options.idempotencyKey ? { _meta: { idempotencyKey: options.idempotencyKey } } : {}),
          },
          undefined,
          {
            timeout: options.timeoutMs,
            ...(options.signal ? { signal: options.signal } : {}),
          },
        );
        connection.trouble = undefined;
        return result as CallToolResult;
      } catch (error) {
        if (options.signal?.aborted || (isSessionGone(error) && !retried)) throw error;
        throw this.#failure(name, connection, error);
      }
    });
  }

  /** Closes every connection; stdio servers' processes end. */
  async close(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(
      entries.map(async ({ opening }) => {
        const connection = await opening.catch(() => undefined);
        await connection?.client.close();
      }),
    );
  }

  async #use<T>(name: string, use: (connection: Connection, retried: boolean) => Promise<T>): Promise<T> {
    const connection = await this.#connection(name);
    try {
      return await use(connection, false);
    } catch (error) {
      if (!isSessionGone(error)) throw error;
      this.#drop(name, connection);
      return use(await this.#connection(name), true);
    }
  }

  /** The error of a call that got no result; drops the connection if its transport failed. */
  #failure(name: string, connection: Connection, error: unknown): Error {
    const said = messageOf(error);
    if (isAnswer(error)) return new Error(`MCP server ${name} refused the call: ${said}`, { cause: error });
    const { trouble } = connection;
    if (trouble !== undefined) this.#drop(name, connection);
    const reported =
      trouble === undefined || trouble === said ? '' : ` (the connection reported: ${trouble})`;
    return new Error(`MCP server ${name} stopped answering: ${said}${reported}`, { cause: error });
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
    const connection: Connection = { client };
    client.onerror = (error) => {
      connection.trouble = `${messageOf(error)}${stderrTail(transport)}`;
    };
    client.onclose = () => {
      connection.trouble ??= `the connection closed${stderrTail(transport)}`;
      this.#drop(name, connection);
    };
    try {
      await client.connect(transport, { timeout: spec.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new Error(
        `MCP server ${name} (${shownUrl(spec.url)}) could not be reached: ${messageOf(error)}${stderrTail(transport)}`,
        { cause: error },
      );
    }
    return connection;
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
    const headers = await resolveHeaders(spec, this.#secretOf);
    return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers } });
  }

  #drop(name: string, connection: Connection): void {
    if (this.#entries.get(name)?.open !== connection) return;
    this.#entries.delete(name);
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

/** The server answered that it does not know the session (see {@link McpConnections.withClient}). */
function isSessionGone(error: unknown): boolean {
  const gone = (cause: unknown) =>
    cause instanceof StreamableHTTPError && (cause.code === 404 || cause.code === 400);
  return gone(error) || (error instanceof Error && gone(error.cause));
}

/** An error the server sent back, as opposed to one of getting no answer. */
function isAnswer(error: unknown): boolean {
  return (
    error instanceof McpError &&
    error.code !== ErrorCode.RequestTimeout &&
    error.code !== ErrorCode.ConnectionClosed
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/**
 * A server's url as messages show it: a stdio command by its program, an HTTP url by its origin
 * (arguments, a path or a query may hold a token).
 */
function shownUrl(url: string): string {
  return isStdioUrl(url) ? `stdio:${parseStdioCommand(url).command} …` : new URL(url).origin;
}
