import { cancelTurn } from '@agentstep/runtime';
import type { ApiDeps } from './api-deps.js';
import { refusalOf } from './refusal-of.js';

/**
 * Cancels the running turn of the log stored as `stored` (`session` as its tenant knows it), and
 * wakes its calls waiting for approval so they fail at once; answers the cancelled turn's id.
 * No turn running (or, given `only`, not that turn) is refused as the API's error.
 */
export async function cancelSessionTurn(
  deps: ApiDeps,
  stored: string,
  session: string,
  only?: string,
): Promise<string> {
  const { approvalTokens, taskTokens, cancelGraceMs } = deps;
  const wake = { approvalTokens, taskTokens };
  const grace = cancelGraceMs === undefined ? {} : { graceMs: cancelGraceMs };
  try {
    const { turn } = await cancelTurn(stored, { ...deps, wake, ...grace }, only);
    return turn;
  } catch (error) {
    throw refusalOf(error, session);
  }
}
