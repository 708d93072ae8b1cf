import {
  type AnnounceDeps,
  announceTurnEnd,
  type Clock,
  closeStoppedTurn,
  type EventLog,
  type OutcomeStore,
  type UsageLedger,
} from '@agentstep/runtime';
import type { ExecutionOwners, OwnedTurn } from './execution-owners.js';
import { otherProcessAlive } from './other-process-alive.js';
import { thisProcess } from './this-process.js';

/** What a turn is closed with: the stores, the clock, and where its end is announced, if anywhere. */
export type CloseTurnDeps = {
  log: EventLog;
  outcomes: OutcomeStore;
  usage: UsageLedger;
  clock: Clock;
  /** The bus a turn's end is announced on, for whoever in this process waits for it. @default none */
  events?: AnnounceDeps['events'];
};

/** The id of the local execution that runs a turn. */
export function executionId({ session, turn }: { session: string; turn: string }): string {
  return `local:${session}:${turn}`;
}

/**
 * Closes a turn its execution left open: failed saying `failure` (or cancelled, if it was asked to
 * stop), each open call answered, the session freed, and its end announced on `deps.events`.
 */
export async function closeDeadTurn(
  turn: Omit<OwnedTurn, 'owner'>,
  failure: string,
  deps: CloseTurnDeps,
): Promise<void> {
  await closeStoppedTurn(turn, failure, deps);
  if (deps.events) await announceTurnEnd(turn, { ...deps, events: deps.events });
}

/**
 * Closes every turn `owners` records whose execution no live process runs any more: its owner
 * process has died (killed, or its machine restarted), or it is this process and the run has
 * ended without the turn being closed (the store was unavailable when it ended). Each is closed
 * as {@link closeDeadTurn} does, unless another turn holds its session by now. A turn that cannot
 * be closed yet stays recorded for the next call; one another call is closing is waited for, not
 * closed twice. Returns the turns closed, by this call or the one it waited for.
 */
export async function closeOrphanedTurns(
  owners: ExecutionOwners,
  deps: CloseTurnDeps,
): Promise<Array<{ session: string; turn: string }>> {
  const orphans = owners.list().filter((owned) => !alive(owned));
  const closed = await Promise.all(orphans.map((owned) => closing(owned, owners, deps)));
  return orphans.filter((_, index) => closed[index]).map(({ session, turn }) => ({ session, turn }));
}

function alive({ owner, session, turn }: OwnedTurn): boolean {
  if (owner.pid !== thisProcess.owner.pid) return otherProcessAlive(owner.pid);
  return (
    owner.instance === thisProcess.owner.instance && thisProcess.running.has(executionId({ session, turn }))
  );
}

/** Whether the orphan was closed: by the close under way, or by one started now. */
function closing(owned: OwnedTurn, owners: ExecutionOwners, deps: CloseTurnDeps): Promise<boolean> {
  const id = executionId(owned);
  const under = thisProcess.closing.get(id);
  if (under !== undefined) return under;
  const started = closeOrphan(owned, owners, deps)
    .catch(() => false)
    .finally(() => thisProcess.closing.delete(id));
  thisProcess.closing.set(id, started);
  return started;
}

async function closeOrphan(owned: OwnedTurn, owners: ExecutionOwners, deps: CloseTurnDeps): Promise<boolean> {
  const holder = await deps.log.holder(owned.session);
  const held = holder?.turn === owned.turn;
  const ended =
    owned.owner.instance === thisProcess.owner.instance
      ? 'ended while the store was unavailable'
      : `ended with its process (pid ${owned.owner.pid})`;
  if (held) await closeDeadTurn(owned, `The turn's execution ${ended}, without closing the turn.`, deps);
  owners.release(owned);
  return held;
}
