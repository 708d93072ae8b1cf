import { TURN_EVENT_SOURCE } from '@agentstep/protocol';
import { type StartQueuedTurnDeps, startQueuedTurn, startQueuedTurnAfter } from '@agentstep/runtime';
import type { LocalEventBus } from './local-event-bus.js';

/**
 * Starts queued messages' turns in this process (decision 0033): at once for every session with
 * queued messages (a server that restarts loses none), then at each turn's end the engine's bus
 * announces. `failed` hears a message that could not start. Returns how to stop, before the host
 * cancels its running turns on its way out.
 */
export function startQueuedTurns(
  bus: LocalEventBus,
  deps: StartQueuedTurnDeps,
  failed: (error: unknown) => void,
): () => void {
  let stopped = false;
  const unlisten = bus.listen((event) => {
    if (!stopped && event.source === TURN_EVENT_SOURCE)
      startQueuedTurnAfter(event.detail, deps).catch(failed);
  });
  deps.queue
    .sessions()
    .then((sessions) => Promise.all(sessions.map((session) => startQueuedTurn(session, deps))))
    .catch(failed);
  return () => {
    stopped = true;
    unlisten();
  };
}
