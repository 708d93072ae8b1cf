// The EventBridge adapter, apart from the core so that importing the runtime does not load its client.
export { EventBridgeTurnEvents } from './events/event-bridge-turn-events.js';
