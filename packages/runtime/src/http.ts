// The http_fetch tool, apart from the core so that only functions that host or describe it load it.

export { type HttpFetchOptions, httpFetchTool, type ResolvedAddress } from './http/http-fetch-tool.js';
export { isBlockedAddress } from './http/is-blocked-address.js';
