import { ENV_NAMES } from '@agentstep/protocol';
import { EventBridgeTurnEvents } from '@agentstep/runtime/events';
import { tableStepDeps } from '../table-step-deps.js';
import { createHandler } from './handler.js';

export const handler = createHandler({
  ...tableStepDeps,
  events: new EventBridgeTurnEvents(process.env[ENV_NAMES.eventBus] || undefined),
});
