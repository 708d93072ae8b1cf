import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import * as z from 'zod';
import { defineTool, type Tool } from '../tools/define-tool.js';
import { type HttpRequest, requestOnce, SAFE_METHODS } from './http-request-once.js';
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

const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

const resolveWithDns = (host: string) => dnsLookup(host, { all: true, verbatim: true });

/**
 * `http_fetch`: a request to an allowed URL. Every address the host resolves to must be public, and
 * the connection goes to the address that was checked, so a DNS answer cannot change in between;
 * the body is cut at `maxBytes`. GET and HEAD follow redirects, checked again at every hop; a
 * request that is not safe (POST, PUT, PATCH, DELETE) carries the call's `Idempotency-Key`, the same
 * on every retry of the call, and answers a redirect as it is rather than sending itself again
 * (decision 0031).
 */
export function httpFetchTool(options: HttpFetchOptions): Tool {
  return defineTool({
    name: 'http_fetch',
    description: `Sends an HTTP(S) request (GET unless another method is given; POST, PUT and PATCH may carry a text body) and returns its status, content type and text. Allowed hosts: ${options.allowHosts.join(', ') || 'none'}.`,
    input: z.object({
      url: z.string().describe('An absolute http:// or https:// URL'),
      method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
      body: z.string().optional().describe('The request body, for POST, PUT and PATCH'),
      content_type: z.string().optional().describe("The body's content type. Default: application/json"),
    }),
    timeoutMs: (options.timeoutMs ?? 10_000) + 1_000,
    // Retrying is safe: a request that is not safe carries the same Idempotency-Key every time.
    idempotent: true,
    handler: async ({ url, method = 'GET', body, content_type }, { signal, idempotencyKey }) => {
      if (body !== undefined && !BODY_METHODS.has(method))
        throw new Error(`Only POST, PUT and PATCH carry a body, not ${method}: send it without one.`);
      const request: HttpRequest = {
        method,
        ...(body === undefined ? {} : { body, contentType: content_type ?? 'application/json' }),
        ...(SAFE_METHODS.has(method) ? {} : { idempotencyKey }),
      };
      let target = parseUrl(url);
      for (let redirects = 0; ; redirects++) {
        const address = await checkTarget(target, options);
        const response = await requestOnce(target, request, address, options, signal);
        if (response.location === undefined || request.idempotencyKey !== undefined) return response.result;
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
