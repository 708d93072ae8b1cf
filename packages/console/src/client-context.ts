import type { AgentStepClient } from '@agentstep/client';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** The API client every page uses; the app provides it. */
export const ClientContext = createContext<AgentStepClient | undefined>(undefined);

/** The API client of the app around this component. */
export function useClient(): AgentStepClient {
  const client = useContext(ClientContext);
  if (client === undefined) throw new Error('useClient() was called outside <ClientContext.Provider>.');
  return client;
}
