import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import * as z from 'zod';
import { defineTool, type Tool } from '../tools/define-tool.js';
import { isBlockedAddress } from './is-blocked-address.js';

/** A resolved address. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Options of {@link httpFetchTool}. */
export interface HttpFetchOptions {
  /** Hosts the tool may fetch: exact names or `*.example.com`. Nothing else is fetched. */
  allowHosts: readonly string[];
  /** @default 1 MiB */
  maxBytes?: number;
  /** @default 10 seconds */
  timeoutMs?: number;
  /** @default 3 */
  maxRedirects?: number;
  /** Resolves a host name to all its addresses. @default DNS */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
  /** Addresses allowed although not public: for tests and local development only. @default none */
  allowAddresses?: readonly string[];
}

const resolveWithDns = (host: string) => dnsLookup(host, { all: true, verbatim: true });

/**
 * `http_fetch`: GET or HEAD an allowed URL. Every address the host resolves to must be public, and
 * the connection goes to the address that was checked, so a DNS answer cannot change in between;
 * redirects are checked again at every hop; the body is cut at `maxBytes`.
 */
export function httpFetchTool(options: HttpFetchOptions): Tool {
  return defineTool({
    name: 'http_fetch',
    description: `Fetches a URL over HTTP(S) and returns its status, content type and text. Allowed hosts: ${options.allowHosts.join(', ') || 'none'}.`,
    input: z.object({
      url: z.string().describe('An absolute http:// or https:// URL'),
      method: z.enum(['GET', 'HEAD']).optional(),
    }),
    timeoutMs: (options.timeoutMs ?? 10_000) + 1_000,
    // GET and HEAD only, safe methods: nothing to send an Idempotency-Key for (decision 0031).
    idempotent: true,
    handler: async ({ url, method = 'GET' }, { signal }) => {
      let target = parseUrl(url);
      for (let redirects = 0; ; redirects++) {
        const address = await checkTarget(target, options);
        const response = await fetchOnce(target, method, address, options, signal);
        if (response.location === undefined) return response.result;
        if (redirects >= (options.maxRedirects ?? 3))
          throw new Error(`${url} redirected more than ${options.maxRedirects ?? 3} times.`);
        target = parseUrl(new URL(response.location, target).href);
      }
    },
  });
}

function parseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`"${url}" is not an absolute URL.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`Only http and https URLs can be fetched, not ${parsed.protocol.replace(':', '')}.`);
  }
  return parsed;
}

/** The one address to connect to, after checking the host and everything it resolves to. */
async function checkTarget(target: URL, options: HttpFetchOptions): Promise<ResolvedAddress> {
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowHosts.some((pattern) => hostMatches(host, pattern))) {
    const allowed =
      options.allowHosts.join(', ') ||
      'none (the deployment sets them: httpAllowHosts, or --fetch-hosts locally)';
    throw new Error(`${host} is not an allowed host. Allowed: ${allowed}.`);
  }
  const family = isIP(host);
  const addresses =
    family !== 0 ? [{ address: host, family }] : await (options.resolve ?? resolveWithDns)(host);
  const refused = addresses.find(
    ({ address }) => isBlockedAddress(address) && !(options.allowAddresses ?? []).includes(address),
  );
  if (refused !== undefined) {
    throw new Error(
      `${host} resolves to ${refused.address}, which is not a public address: loopback, private, link-local and metadata addresses are refused.`,
    );
  }
  const [first] = addresses;
  if (first === undefined) throw new Error(`${host} did not resolve to any address.`);
  return first;
}

function hostMatches(host: string, pattern: string): boolean {
  const wanted = pattern.toLowerCase();
  const name = host.toLowerCase();
  return wanted.startsWith('*.') ? name.endsWith(wanted.slice(1)) : name === wanted;
}

interface FetchResult {
  status: number;
  content_type: string | null;
  body: string;
  truncated?: true;
}

function fetchOnce(
  target: URL,
  method: string,
  address: ResolvedAddress,
  options: HttpFetchOptions,
  signal: AbortSignal,
): Promise<{ result: FetchResult; location?: string }> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  // Connect to the address that was checked, whatever the name resolves to by now.
  const pinned: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((settle, fail) => {
    const outgoing = request(target, {
      method,
      lookup: pinned,
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      headers: { 'user-agent': 'AgentStep http_fetch', accept: '*/*' },
    });
    outgoing.on('error', (error) =>
      fail(
        error.name === 'AbortError'
          ? new Error(`${target.host} did not answer within ${timeoutMs} ms.`)
          : error,
      ),
    );
    outgoing.on('response', (response) => {
      const location =
        response.statusCode && response.statusCode >= 300 && response.statusCode < 400
          ? response.headers.location
          : undefined;
      if (location !== undefined) {
        response.resume();
        settle({ result: { status: response.statusCode ?? 0, content_type: null, body: '' }, location });
        return;
      }
      readCapped(response, options.maxBytes ?? 1024 * 1024).then(({ body, truncated }) => {
        const result: FetchResult = {
          status: response.statusCode ?? 0,
          content_type: response.headers['content-type'] ?? null,
          body,
        };
        settle({ result: truncated ? { ...result, truncated } : result });
      }, fail);
    });
    outgoing.end();
  });
}

async function readCapped(
  response: IncomingMessage,
  maxBytes: number,
): Promise<{ body: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    size += buffer.length;
    if (size > maxBytes) {
      response.destroy();
      return { body: Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'), truncated: true };
    }
  }
  return { body: Buffer.concat(chunks).toString('utf8'), truncated: false };
}
