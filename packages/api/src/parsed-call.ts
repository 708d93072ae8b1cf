/** A call as the model wrote it (`{"name", "args"}`), or undefined for an element that is not one (A6). */
export function parsedCall(content: string): { name: string; args: unknown } | undefined {
  try {
    const call = JSON.parse(content);
    return typeof call?.name === 'string' ? { name: call.name, args: call.args } : undefined;
  } catch {
    return undefined;
  }
}
