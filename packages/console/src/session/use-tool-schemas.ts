import { useEffect, useState } from 'preact/hooks';
import { useClient } from '../client-context.js';

/**
 * The agent's tools' argument schemas by tool name, asked once (`GET /tools`); empty until they
 * come, or when they cannot be read (the API then checks edited arguments alone).
 */
export function useToolSchemas(): ReadonlyMap<string, unknown> {
  const client = useClient();
  const [schemas, setSchemas] = useState<ReadonlyMap<string, unknown>>(new Map());
  useEffect(() => {
    let current = true;
    client.tools().then(
      (tools) => current && setSchemas(new Map(tools.map((tool) => [tool.name, tool.parameters]))),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [client]);
  return schemas;
}
