import { type HandlerDeps, stepHandler, tokenAuthorizerEventSchema } from '@agentstep/runtime/lambda';
import { type AuthorizeBearerDeps, authorizeBearer } from './authorize-bearer.js';

/**
 * The API's JWT authorizer (a REST API TOKEN authorizer): a token of the configured OIDC issuer
 * and audience lets its `sub` in, as the request's tenant; anything else is a 401.
 */
export const createHandler = (deps: AuthorizeBearerDeps & HandlerDeps) =>
  stepHandler(tokenAuthorizerEventSchema, authorizeBearer, deps);
