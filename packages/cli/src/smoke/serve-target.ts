import { AgentStepClient } from '@agentstep/client';
import { SmokeSkip, type SmokeTarget } from './smoke-target.js';

/**
 * A running `agentstep serve` of the smoke agent at `url` (`--token`: the bearer token its `--auth`
 * takes). It has the API and the console; no EventBridge rule starts its turns.
 */
export function serveTarget(url: string, token: string | undefined): SmokeTarget {
  const baseUrl = url.replace(/\/+$/, '');
  return {
    name: `serve ${baseUrl}`,
    client: new AgentStepClient({ baseUrl, ...(token === undefined ? {} : { token }) }),
    consoleConfig: async (signal) => {
      const response = await fetch(`${baseUrl}/config.json`, { signal });
      if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
      return response.json();
    },
    trigger: async () =>
      new SmokeSkip('agentstep serve starts no turn from EventBridge: checked on a deployed stack'),
  };
}
