import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { resolveHeaders, type SecretLookup } from '../mcp/resolve-headers.js';
import type { A2aAgentSpec } from './a2a-agent-spec.js';

/**
 * `@a2a-js/sdk`'s client of the remote agent, its card read first (JSON-RPC or HTTP+JSON, as the
 * card lists them). Every request, the card's too, carries the spec's headers, their secrets read
 * through `secretOf` as it is sent (a rotated secret is used at once); a request the SDK sends
 * without a signal of its own (the card's) stops with `signal`. The headers go to the spec's
 * origin only: a card whose interfaces are elsewhere (another host, or plain `http://` for an
 * `https://` agent) is refused, nothing sent there.
 */
export function a2aClientOf(
  spec: Pick<A2aAgentSpec, 'name' | 'url' | 'headers'>,
  secretOf: SecretLookup,
  signal: AbortSignal,
): Promise<Client> {
  const home = new URL(spec.url).origin;
  const fetchImpl: typeof fetch = async (input, init) => {
    refuseElsewhere(spec.name, home, input);
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(
      await resolveHeaders(spec, secretOf, `A2A agent ${spec.name}`),
    ))
      headers.set(name, value);
    return fetch(input, { ...init, headers, signal: init?.signal ?? signal });
  };
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return new ClientFactory(options).createFromUrl(spec.url);
}

/** Refuses a request to another origin than the agent's own: its headers (its credentials) would go there. */
function refuseElsewhere(name: string, home: string, input: Parameters<typeof fetch>[0]): void {
  const target = new URL(input instanceof Request ? input.url : String(input)).origin;
  if (target === home) return;
  throw new Error(
    `The card of A2A agent ${name} (${home}) names an interface at ${target}: its headers go to ${home} only, so nothing was sent. Give the agent's url the origin its card names.`,
  );
}
