import type { TurnBody } from '@agentstep/protocol';
import { beginTurn, tenantTag, userMessageKey } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { refusalOf } from './refusal-of.js';
import { storedSession } from './tenants.js';

/** A turn as a tenant names it: its session (as the tenant knows it) and the turn's id. */
export interface TurnIds {
  tenant: string;
  session: string;
  turn: string;
}

/**
 * Starts turn `turn` of `session` with `body`'s message and limits. A turn already started under
 * these ids (a retried request) is left as it is: nothing starts twice. Refusals (a turn already
 * running, a budget spent) are thrown as the API's errors.
 */
export async function startSessionTurn(
  deps: ApiDeps,
  body: TurnBody,
  { tenant, session, turn }: TurnIds,
): Promise<void> {
  const stored = storedSession(tenant, session);
  if ((await deps.log.appended(stored, userMessageKey(turn))) !== undefined) return;
  try {
    await beginTurn(
      // The turn's result and end event name the session as the tenant knows it.
      { session: stored, prompt: body.message, limits: { ...limitsOf(body), request: { session, tenant } } },
      { ...deps, ids: { session: () => stored, turn: () => turn } },
    );
  } catch (error) {
    throw refusalOf(error, session);
  }
}

/** Lists a new session among its tenant's sessions (`GET /sessions`). */
export async function listSession(deps: ApiDeps, tenant: string, session: string): Promise<void> {
  await deps.directory.add(tenantTag(tenant), 'session', { id: session, createdAt: deps.clock.now() });
}

function limitsOf({ maxSteps, budget, toolExecution }: TurnBody) {
  return {
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(budget === undefined ? {} : { budget }),
    ...(toolExecution === undefined ? {} : { toolExecution }),
  };
}
