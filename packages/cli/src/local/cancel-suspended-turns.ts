import type { LocalExecutionStarter } from '@agentstep/local';
import {
  type CancelDeps,
  cancelTurn,
  suspensionOf,
  type TenantControls,
  tenantTagOf,
} from '@agentstep/runtime';

/** How often `serve` looks for running turns of suspended tenants: well within the 2 s promised. */
export const SUSPENSION_CHECK_MS = 500;

/**
 * Cancels the running turns of suspended tenants, as the API's cancel does (one result per open
 * call), looking every `everyMs` (decision 0041): `agentstep tenants suspend` in another process
 * stops them within a second. Looks up each running tenant once a round; returns how to stop.
 */
export function cancelSuspendedTurns(
  starter: LocalExecutionStarter,
  deps: Omit<CancelDeps, 'starter'> & { tenantControls: TenantControls },
  onError: (error: unknown) => void,
  everyMs = SUSPENSION_CHECK_MS,
): () => void {
  let checking = false;
  const check = async () => {
    const byTag = new Map<string, string[]>();
    for (const { session } of starter.running()) {
      const tag = tenantTagOf(session);
      if (tag !== undefined) byTag.set(tag, [...(byTag.get(tag) ?? []), session]);
    }
    for (const [tag, sessions] of byTag) {
      if ((await suspensionOf(deps.tenantControls, tag)) === undefined) continue;
      await Promise.all(
        sessions.map((session) => cancelTurn(session, { ...deps, starter, graceMs: 0 }).catch(onError)),
      );
    }
  };
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    check()
      .catch(onError)
      .finally(() => {
        checking = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
