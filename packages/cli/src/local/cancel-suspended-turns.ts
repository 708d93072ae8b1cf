import type { LocalExecutionStarter } from '@agentstep/local';
import { type CancelDeps, cancelTurnsOfSuspended, type TenantControls } from '@agentstep/runtime';

/** How often `serve` looks for running turns of suspended tenants: well within the 2 s promised. */
export const SUSPENSION_CHECK_MS = 500;

/**
 * Cancels the running turns of suspended tenants, as the API's cancel does (one result per open
 * call), looking every `everyMs` (decision 0041): `agentstep tenants suspend` in another process
 * stops them within a second. Returns how to stop looking.
 */
export function cancelSuspendedTurns(
  starter: LocalExecutionStarter,
  deps: Omit<CancelDeps, 'starter'> & { tenantControls: TenantControls },
  onError: (error: unknown) => void,
  everyMs = SUSPENSION_CHECK_MS,
): () => void {
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    cancelTurnsOfSuspended(starter.running(), { ...deps, starter })
      .catch(onError)
      .finally(() => {
        checking = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
