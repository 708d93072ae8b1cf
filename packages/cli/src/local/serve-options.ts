import { isIPv6 } from 'node:net';
import { isPlainHttpOnThisMachine } from '@agentstep/console/config';
import { corsOriginProblem } from '@agentstep/protocol';
import type { Ceiling } from '@agentstep/runtime';
import { UsageError } from '../usage-error.js';
import { parseRunOptions, type RunOptions } from './run-options.js';
import { splitOptions } from './split-options.js';
import { tenantCeilingOf } from './tenant-ceiling-option.js';

/**
 * Who `agentstep serve` lets in: everyone as one tenant (`none`), the tenant a bearer token names
 * (`dev`), or the `sub` of a bearer JWT from an OIDC issuer for an audience (`jwt`, as deployed);
 * the web console signs in to it as the client `consoleClientId`.
 */
export type ServeAuth =
  | { mode: 'none' }
  | { mode: 'dev' }
  | { mode: 'jwt'; issuer: string; audience: string; consoleClientId: string };

/** `agentstep serve`'s options: where it listens, who it lets in, and the agent every turn runs. */
export interface ServeOptions {
  port: number;
  host: string;
  /** `--allowed-hosts`: `Host` names it answers besides its own address (`*.example.com` for those under one). */
  allowedHosts: string[];
  /** `--cors`: the origins a browser page may call the API from; none by default (no CORS headers). */
  corsOrigins: string[];
  auth: ServeAuth;
  /**
   * `--tenant-ceiling USD_PER_DAY[,USD_PER_MONTH]`, `--tenant-token-ceiling TOKENS_PER_DAY[,TOKENS_PER_MONTH]`:
   * what every tenant may spend on models (decision 0043).
   */
  tenantCeiling?: Ceiling;
  agent: RunOptions;
}

const JWT_FLAGS = ['--jwt-issuer', '--jwt-audience', '--console-client-id'] as const;
/** `serve`'s own options; the others configure its agent, as `run`'s do. */
const OWN_FLAGS = [
  '--port',
  '--host',
  '--allowed-hosts',
  '--cors',
  '--auth',
  '--tenant-ceiling',
  '--tenant-token-ceiling',
  ...JWT_FLAGS,
];

/** Parses and checks `agentstep serve`'s arguments; every mistake is a UsageError. */
export function parseServeOptions(args: string[]): ServeOptions {
  const { own, run } = splitOptions(args, OWN_FLAGS, 'serve', 'send messages with POST /sessions');
  return {
    port: portOf(own['--port']),
    host: own['--host'] ?? '127.0.0.1',
    allowedHosts: allowedHostsOf(own['--allowed-hosts'] ?? ''),
    corsOrigins: corsOriginsOf(own['--cors']),
    auth: authOf(own),
    ...tenantCeilingOf(own['--tenant-ceiling'], own['--tenant-token-ceiling']),
    agent: agentOf(run),
  };
}

function portOf(text: string | undefined): number {
  if (text === undefined) return 3000;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535)
    throw new UsageError(`--port must be 0 to 65535, received "${text}".`);
  return port;
}

/** `--allowed-hosts NAME[,NAME…]`: host names (`*.` before one for the names under it) or IP addresses, no ports. */
function allowedHostsOf(text: string): string[] {
  const names = text.split(',').filter((name) => name !== '');
  const wrong = names.find(
    (name) => !/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(name) && !isIPv6(name.replace(/^\[(.*)\]$/, '$1')),
  );
  if (wrong !== undefined)
    throw new UsageError(
      `--allowed-hosts takes host names (*.example.com for every name under example.com) or IP addresses, without a scheme or port; received "${wrong}".`,
    );
  return names;
}

/** `--cors ORIGIN[,ORIGIN…]`: each origin exactly as a browser sends it (`https://app.example.com`). */
function corsOriginsOf(text: string | undefined): string[] {
  if (text === undefined) return [];
  const origins = text.split(',').filter((origin) => origin !== '');
  if (origins.length === 0) throw new UsageError('--cors takes ORIGIN[,ORIGIN…], received none.');
  for (const origin of origins) {
    const problem = corsOriginProblem(origin);
    if (problem !== undefined) throw new UsageError(`--cors: "${origin}" is no origin: ${problem}.`);
  }
  return origins;
}

function authOf(own: Record<string, string>): ServeAuth {
  const mode = own['--auth'] ?? 'none';
  if (mode === 'jwt') return jwtAuthOf(own);
  const stray = JWT_FLAGS.find((flag) => flag in own);
  if (stray !== undefined) throw new UsageError(`${stray} applies to --auth jwt only.`);
  if (mode === 'none' || mode === 'dev') return { mode };
  throw new UsageError(`--auth must be "none", "dev" or "jwt", received "${mode}".`);
}

function jwtAuthOf(own: Record<string, string>): ServeAuth {
  const issuer = own['--jwt-issuer'];
  const audience = own['--jwt-audience'];
  if (!issuer || !audience)
    throw new UsageError(
      "--auth jwt needs --jwt-issuer URL and --jwt-audience AUDIENCE: the tokens' iss and aud.",
    );
  if (!URL.canParse(issuer)) throw new UsageError(`--jwt-issuer must be a URL, received "${issuer}".`);
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !isPlainHttpOnThisMachine(url))
    throw new UsageError(
      `--jwt-issuer must be https (http only on this machine: localhost, 127.0.0.1), received "${issuer}".`,
    );
  return { mode: 'jwt', issuer, audience, consoleClientId: own['--console-client-id'] || audience };
}

/** The agent's options; a tenant is each request's (`--auth`), never one for the whole server. */
function agentOf(run: string[]): RunOptions {
  const agent = parseRunOptions(run, { known: OWN_FLAGS });
  if (agent.tenant !== undefined)
    throw new UsageError("serve takes each request's tenant from --auth, not --tenant: that is for run.");
  return agent;
}
