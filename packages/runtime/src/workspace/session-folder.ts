import { isSessionId, SESSION_ID_RULE } from '@agentstep/protocol';

/** A session's folder (or key prefix) in a workspace: its id, refused unless it is a valid one. */
export function sessionFolder(session: string): string {
  if (!isSessionId(session)) throw new Error(`A session id is ${SESSION_ID_RULE}; received "${session}".`);
  return session;
}
