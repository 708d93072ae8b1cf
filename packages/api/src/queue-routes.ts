import type { TurnWithdrawn } from '@agentstep/protocol';
import { userMessageKey } from '@agentstep/runtime';
import type { Hono } from 'hono';
import type { ApiDeps } from './api-deps.js';
import { ApiError } from './api-error.js';
import { existingLog } from './session-access.js';

/**
 * `DELETE /sessions/{id}/queue/{turn}`: withdraws a message queued behind the running turn, so its
 * turn never starts; `409 TurnStarted` once it has started (or is starting), `404
 * QueuedTurnNotFound` for a turn the session never queued.
 */
export function addQueueRoutes(app: Hono, deps: ApiDeps): void {
  app.delete('/sessions/:id/queue/:turn', async (c) => {
    const { session, stored } = await existingLog(c, deps);
    const turn = c.req.param('turn');
    if (await deps.queue.withdraw(stored, turn)) {
      const withdrawn: TurnWithdrawn = { session, turn, status: 'withdrawn' };
      return c.json(withdrawn);
    }
    const starting = (await deps.queue.list(stored)).some((queued) => queued.turn === turn);
    if (starting || (await deps.log.appended(stored, userMessageKey(turn))) !== undefined)
      throw new ApiError(
        409,
        'TurnStarted',
        `Turn ${turn} of session ${session} has started: cancel it instead.`,
      );
    throw new ApiError(
      404,
      'QueuedTurnNotFound',
      `Session ${session} has no queued turn ${turn}: GET /sessions/${session} lists its queued messages.`,
    );
  });
}
