export type { ApiDeps } from './api-deps.js';
export { ApiError } from './api-error.js';
export { authorizerTenant, iamTenant } from './api-gateway-tenants.js';
export { createApi } from './create-api.js';
export { InMemoryLiveSteps } from './in-memory-live-steps.js';
export type { LiveSteps, LiveText } from './live-steps.js';
export { LogChanges } from './log-changes.js';
export { MAX_BODY_BYTES } from './read-body.js';
export { bearerNameTenant, jwtTenant, singleTenant, storedSession, type TenantOf } from './tenants.js';
