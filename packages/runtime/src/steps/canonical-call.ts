import { storedCall } from '@agentstep/protocol';
import { canonicalJson } from '@agentstep/protocol/node';

/**
 * A stored call's tool and its arguments as canonical JSON (key order ignored); `undefined` when the
 * model wrote no usable call. An element that is not a valid call still counts, by the name and
 * args it has.
 */
export function canonicalCall(content: string): { name: string; args: string } | undefined {
  const element = storedCall(content, 0);
  if (element.ok) return { name: element.call.name, args: canonicalJson(element.call.args) };
  const { name, args } = (element.element ?? {}) as { name?: unknown; args?: unknown };
  return typeof name === 'string' ? { name, args: canonicalJson(args ?? {}) } : undefined;
}
