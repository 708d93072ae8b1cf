import type { Requester, TurnRequest } from '@agentstep/protocol';

/** Who asked for a requested turn: the session as they named it, their `requestId` and tenant. */
export function requesterOf(request: TurnRequest, session: string): Requester {
  return {
    session,
    ...(request.requestId === undefined ? {} : { requestId: request.requestId }),
    ...(request.tenant === undefined ? {} : { tenant: request.tenant }),
  };
}
