import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listeningUrl } from '@agentstep/cli/testing';
import { readUntil } from '@agentstep/runtime/testing';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { startCli } from './run-cli.js';

/** A running `agentstep serve` and the address it announced. */
export interface Served {
  url: string;
  /** Stops it as Ctrl-C does (or with `signal`) and resolves with its exit code, null when the signal killed it. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Starts it again, with the same arguments in the same folder (its store kept). */
  restart(): Promise<Served>;
}

/**
 * `serve`'s arguments for keeping its log in its own memory: for tests of what it serves (the web
 * console) rather than of its store, which then start no DynamoDB Local.
 */
export const IN_MEMORY_STORE = ['--store', 'memory'];

const SCRIPT_FILE = 'script.json';

/**
 * Starts `agentstep serve --auth dev` in a new folder, every turn playing `script` from its start
 * (a workflow's goals their own scripts, when it is an object by goal), with `args` added
 * (`--approve echo`, …).
 */
export function serveScript(
  name: string,
  script: unknown[] | Record<string, unknown[]>,
  args: string[] = [],
): Promise<Served> {
  const cwd = mkdtempSync(join(tmpdir(), `agentstep-${name}-`));
  writeFileSync(join(cwd, SCRIPT_FILE), JSON.stringify(script));
  return startServe(['--auth', 'dev', '--script', SCRIPT_FILE, ...args], cwd);
}

/**
 * Starts `agentstep serve` in `cwd` on a free port, `env` added to its environment; resolves once it
 * printed `listening on …`.
 */
export async function startServe(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Served> {
  const served = startCli(['serve', '--port', '0', ...args], { cwd, env });
  const url = await served.waitFor(listeningUrl);
  const stop = (signal: NodeJS.Signals = 'SIGINT') => {
    served.child.kill(signal);
    return served.exited;
  };
  return { url, stop, restart: () => startServe(args, cwd, env) };
}

/** A JSON request to the API as `tenant` (no Authorization header when `undefined`). */
export async function call(
  url: string,
  tenant: string | undefined,
  init: RequestInit & { json?: unknown } = {},
) {
  const headers = new Headers(init.headers);
  if (tenant !== undefined) headers.set('authorization', `Bearer ${tenant}`);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  const response = await fetch(url, {
    ...init,
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** A logged event as the API returns it. */
export type ApiEvent = Record<string, unknown> & { type: string; payload?: Record<string, unknown> };

/** A session's logged events (`GET /events`, as `tenant`), once `until` holds for them. */
export async function eventsOnce(
  url: string,
  tenant: string,
  session: string,
  until: (events: ApiEvent[]) => boolean,
): Promise<ApiEvent[]> {
  const read = async () =>
    (await call(`${url}/sessions/${session}/events`, tenant)).body.events as ApiEvent[];
  return readUntil(read, until);
}

/** Reads a server-sent event stream's frames; stops after `limit` frames (then drops the connection). */
export async function readStream(
  url: string,
  tenant: string,
  options: { lastEventId?: string; limit?: number } = {},
): Promise<{ status: number; frames: EventSourceMessage[] }> {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${tenant}` };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(url, { headers, signal: controller.signal });
  const frames: EventSourceMessage[] = [];
  if (response.body === null || !response.ok) return { status: response.status, frames };
  const parser = createParser({ onEvent: (frame) => frames.push(frame) });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (options.limit !== undefined && frames.length >= options.limit) break;
    }
  } finally {
    controller.abort();
  }
  return {
    status: response.status,
    frames: options.limit === undefined ? frames : frames.slice(0, options.limit),
  };
}

/**
 * Once calls of `session` wait for a decision (`GET /approvals` lists some), approves each of them
 * as `tenant`; resolves with their ids. With `--approve TOOL`, this is how a test ends a turn it held.
 */
export async function approveWaiting(url: string, tenant: string, session: string): Promise<string[]> {
  const waiting = async () =>
    (
      (await call(`${url}/sessions/${session}/approvals`, tenant)).body.approvals as Array<{ id: string }>
    ).map(({ id }) => id);
  const ids = await readUntil(waiting, (found) => found.length > 0);
  for (const id of ids) {
    const decided = await call(`${url}/sessions/${session}/approvals/${id}`, tenant, {
      method: 'POST',
      json: { decision: 'approve' },
    });
    if (decided.status !== 200) throw new Error(`approving ${id} answered ${decided.status}`);
  }
  return ids;
}
