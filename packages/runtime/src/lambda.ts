// The Lambda step handler, apart from the core so that importing the runtime does not load middy or Powertools.

export { eventBridgeEventSchema } from './lambda/event-bridge-event-schema.js';
export { eventBridgeHandler } from './lambda/event-bridge-handler.js';
export { type HandlerDeps, type StepHandler, stepHandler } from './lambda/step-handler.js';
export { tokenAuthorizerEventSchema } from './lambda/token-authorizer-event-schema.js';
