/**
 * A table's entry for a model id: an exact key, else the most specific wildcard key that matches
 * (`*` matches any run of characters, so `bedrock:*anthropic.claude-sonnet-4*` covers regional
 * inference profiles like `us.anthropic.claude-sonnet-4-5-…`).
 */
export function modelTableEntry<T>(table: Readonly<Record<string, T>>, modelId: string): T | undefined {
  if (Object.hasOwn(table, modelId)) return table[modelId];
  const matches = Object.keys(table)
    .filter((key) => key.includes('*') && wildcard(key).test(modelId))
    .sort((a, b) => b.length - a.length);
  return matches[0] === undefined ? undefined : table[matches[0]];
}

function wildcard(key: string): RegExp {
  const pattern = key
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`);
}
