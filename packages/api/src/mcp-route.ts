import type { Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';

/** `POST /mcp`: the agent as an MCP server. */
export function addMcpRoute(_app: Hono, _deps: ApiDeps): void {}
