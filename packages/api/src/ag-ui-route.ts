import type { Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';

/** `POST /ag-ui`: AG-UI's run endpoint. */
export function addAgUiRoute(_app: Hono, _deps: ApiDeps): void {}
