import { isIPv4, isIPv6 } from 'node:net';

/** Which `Host` names `agentstep serve` answers to: the address it listens on and `--allowed-hosts`. */
export interface HostRule {
  /** The address it listens on (`--host`). */
  listen: string;
  /** `--allowed-hosts`: names, or `*.example.com` for every name under example.com. */
  allowed: readonly string[];
}

/** Where a request arrived: its connection's local address and port. */
export interface Arrival {
  address: string;
  port: number;
}

/** The addresses that listen on every interface of the machine. */
const EVERY_INTERFACE = new Set(['0.0.0.0', '::']);
/** Stands for every loopback name among the accepted names. */
const LOOPBACK = '<loopback>';

/**
 * Whether serve answers a request with this `Host` (DNS rebinding sends a name of the attacker's):
 * the name must be the address it listens on, an `--allowed-hosts` name, and, when it listens on
 * loopback or every interface, `localhost` or a loopback address; listening on every interface, also
 * the address the request arrived at. A port, if given, must be the one it arrived on. No `Host`,
 * or one with anything else in it, is refused.
 */
export function acceptsHost(host: string | null | undefined, rule: HostRule, arrival: Arrival): boolean {
  const parsed = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::([0-9]{1,5}))?$/i.exec(host ?? '');
  if (parsed === null) return false;
  const [, bracketed, plain = '', port] = parsed;
  if (bracketed !== undefined && !isIPv6(bracketed)) return false;
  if (port !== undefined && Number(port) !== arrival.port) return false;
  const name = bare(bracketed ?? plain);
  return acceptedNames(rule, arrival).some((pattern) => matches(name, pattern));
}

/** The names and patterns a request that arrived at `arrival` may carry. */
function acceptedNames({ listen, allowed }: HostRule, arrival: Arrival): string[] {
  const listening = bare(listen);
  const names = [...allowed.map(bare), listening];
  // An IPv4 connection to an IPv6 socket arrives at ::ffff:a.b.c.d.
  if (EVERY_INTERFACE.has(listening)) names.push(bare(arrival.address.replace(/^::ffff:(?=\d)/i, '')));
  if (EVERY_INTERFACE.has(listening) || isLoopback(listening)) names.push(LOOPBACK);
  return names;
}

function matches(name: string, pattern: string): boolean {
  if (pattern === LOOPBACK) return isLoopback(name);
  return pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern;
}

/** `localhost`, 127.0.0.0/8 or ::1. */
function isLoopback(name: string): boolean {
  return name === 'localhost' || (isIPv4(name) && name.startsWith('127.')) || name === '::1';
}

/** A name lower-cased; an IPv6 address without brackets, in its shortest form (`::1`). */
function bare(name: string): string {
  const unbracketed = name.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return isIPv6(unbracketed) ? new URL(`http://[${unbracketed}]`).hostname.slice(1, -1) : unbracketed;
}
