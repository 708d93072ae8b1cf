import { UsageError } from '../usage-error.js';
import { parseRunOptions, type RunOptions } from './run-options.js';
import { splitOptions } from './split-options.js';

/** Who `agentstep serve` lets in: everyone as one tenant, or the tenant a bearer token names. */
export type ServeAuth = 'none' | 'dev';

/** `agentstep serve`'s options: where it listens, who it lets in, and the agent every turn runs. */
export interface ServeOptions {
  port: number;
  host: string;
  auth: ServeAuth;
  agent: RunOptions;
}

/** Parses and checks `agentstep serve`'s arguments; every mistake is a UsageError. */
export function parseServeOptions(args: string[]): ServeOptions {
  const { own, run } = splitOptions(
    args,
    ['--port', '--host', '--auth'],
    'serve',
    'send messages with POST /sessions',
  );
  return {
    port: portOf(own['--port']),
    host: own['--host'] ?? '127.0.0.1',
    auth: authOf(own['--auth']),
    agent: parseRunOptions(run),
  };
}

function portOf(text: string | undefined): number {
  if (text === undefined) return 3000;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535)
    throw new UsageError(`--port must be 0 to 65535, received "${text}".`);
  return port;
}

function authOf(text: string | undefined): ServeAuth {
  if (text === undefined || text === 'none' || text === 'dev') return text ?? 'none';
  throw new UsageError(`--auth must be "none" or "dev", received "${text}".`);
}
