import { UsageError } from '../usage-error.js';
import { parseRunOptions, type RunOptions } from './run-options.js';

/** Who `agentstep serve` lets in: everyone as one tenant, or the tenant a bearer token names. */
export type ServeAuth = 'none' | 'dev';

/** `agentstep serve`'s options: where it listens, who it lets in, and the agent every turn runs. */
export interface ServeOptions {
  port: number;
  host: string;
  auth: ServeAuth;
  agent: RunOptions;
}

/** `run` options that name one turn or one terminal, which a server has no use for. */
const RUN_ONLY = new Set(['--session', '--take-over', '--lease', '--record', '--json', '--mode']);
/** `run` options that take no value. */
const SWITCHES = new Set(['--json', '--sequential', '--take-over']);

/** Parses and checks `agentstep serve`'s arguments; every mistake is a UsageError. */
export function parseServeOptions(args: string[]): ServeOptions {
  const own: Record<string, string> = {};
  const rest: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    const [flag = '', inline] = arg.split(/=(.*)/s, 2);
    if (!flag.startsWith('--'))
      throw new UsageError(`serve takes no prompt ("${arg}"): send messages with POST /sessions.`);
    if (RUN_ONLY.has(flag)) throw new UsageError(`${flag} applies to \`agentstep run\`, not to serve.`);
    const takesValue = !SWITCHES.has(flag) && inline === undefined;
    const value = inline ?? (takesValue ? args[++index] : undefined);
    if (['--port', '--host', '--auth'].includes(flag)) own[flag] = value ?? '';
    else rest.push(flag, ...(value === undefined ? [] : [value]));
  }
  return {
    port: portOf(own['--port']),
    host: own['--host'] ?? '127.0.0.1',
    auth: authOf(own['--auth']),
    agent: parseRunOptions(rest),
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
