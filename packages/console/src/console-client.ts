import { AgentStepClient } from '@agentstep/client';

/**
 * A client of the API this page came from, sending `token` as its bearer token when given; `onUnauthorized` hears
 * of every 401 answer, so the page can ask who is signing in.
 */
export function consoleClient(token: string | undefined, onUnauthorized: () => void): AgentStepClient {
  return new AgentStepClient({
    baseUrl: location.origin,
    ...(token === undefined ? {} : { token }),
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 401) onUnauthorized();
      return response;
    },
  });
}
