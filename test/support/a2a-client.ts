import { SendMessageRequest } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';

/** The binding a client speaks, as A2A names it. */
export type A2aBinding = 'JSONRPC' | 'HTTP+JSON';

/**
 * `@a2a-js/sdk`'s own client of the agent at `url` (its card read first), acting for `tenant`
 * (`serve --auth dev`: the bearer names it), speaking `binding`.
 */
export function a2aClientOf(url: string, tenant: string, binding: A2aBinding = 'JSONRPC'): Promise<Client> {
  const bearer: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${tenant}`);
    return fetch(input, { ...init, headers });
  };
  return a2aClientWith(url, bearer, binding);
}

/** `@a2a-js/sdk`'s own client of the agent at `url`, every request (the card's too) sent by `fetchImpl`. */
export function a2aClientWith(
  url: string,
  fetchImpl: typeof fetch,
  binding: A2aBinding = 'JSONRPC',
): Promise<Client> {
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    preferredTransports: [binding],
    transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return new ClientFactory(options).createFromUrl(url);
}

/**
 * `SendMessage`'s params: a user's message of `text` (with `taskId` to answer a task), built as the
 * SDK builds them from their wire form; `configuration` as the wire names it.
 */
export function userMessage(
  text: string,
  more: { taskId?: string } = {},
  configuration: { returnImmediately?: boolean } = {},
): SendMessageRequest {
  const message = { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...more };
  return SendMessageRequest.fromJSON({ message, configuration });
}
