import { useClient } from '../client-context.js';
import { useLoaded } from '../common/use-loaded.js';

const NONE: ReadonlyMap<string, unknown> = new Map();

/**
 * The agent's tools' argument schemas by tool name, asked once (`GET /tools`); empty until they
 * come, or when they cannot be read (the API then checks edited arguments alone).
 */
export function useToolSchemas(): ReadonlyMap<string, unknown> {
  const client = useClient();
  const load = async () => new Map((await client.tools()).map((tool) => [tool.name, tool.parameters]));
  return useLoaded<ReadonlyMap<string, unknown>>(load, NONE, [client]).value;
}
