import { NoTurnRunningError } from '../errors.js';
import { tenantTagOf } from '../requests/stored-session.js';
import { type CancelDeps, cancelTurn } from '../session/cancel-turn.js';
import { suspensionOf } from './suspension-of.js';
import { EVERY_TENANT, type TenantControls } from './tenant-controls.js';

/** A turn running now, by its stored session. */
export interface RunningTurn {
  session: string;
  turn: string;
}

/**
 * Cancels those of the `running` turns whose tenant is suspended (or, for a session of no tenant,
 * every tenant is), as the API's cancel does (one result per open call, the execution stopped at
 * once), looking up each tenant once (decision 0041).
 * Returns the turns it cancelled (a turn that ended meanwhile is not one of them); when some could
 * not be cancelled, fails with all their errors once every other is cancelled.
 */
export async function cancelTurnsOfSuspended(
  running: readonly RunningTurn[],
  deps: CancelDeps & { tenantControls: TenantControls },
): Promise<RunningTurn[]> {
  // A session of no tenant (a trigger's, a parent workflow's) stops with the agent-wide switch.
  const byTag = new Map<string, RunningTurn[]>();
  for (const turn of running) {
    const tag = tenantTagOf(turn.session) ?? EVERY_TENANT;
    byTag.set(tag, [...(byTag.get(tag) ?? []), turn]);
  }
  const suspended = await Promise.all(
    [...byTag].map(async ([tag, turns]) =>
      (await suspensionOf(deps.tenantControls, tag)) === undefined ? [] : turns,
    ),
  );
  const outcomes = await Promise.allSettled(
    suspended
      .flat()
      .map((turn) => cancelTurn(turn.session, { ...deps, graceMs: 0 }, turn.turn).then(() => turn)),
  );
  const failures = outcomes.flatMap((outcome) =>
    outcome.status === 'rejected' && !(outcome.reason instanceof NoTurnRunningError) ? [outcome.reason] : [],
  );
  if (failures.length > 0)
    throw new AggregateError(
      failures,
      `${failures.length} turn(s) of suspended tenants could not be cancelled.`,
    );
  return outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
}
