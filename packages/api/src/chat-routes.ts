import type { Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';

/** `POST /chat`, `GET /chat/{id}/stream`, `GET /chat/{id}/messages`: the AI SDK's chat transport. */
export function addChatRoutes(_app: Hono, _deps: ApiDeps): void {}
