// The Lambda step handler, apart from the core so that importing the runtime does not load middy or Powertools.

export { eventBridgeHandler } from './lambda/event-bridge-handler.js';
export { type HandlerDeps, type StepHandler, stepHandler } from './lambda/step-handler.js';
