import { firstJsonObject } from '@agentstep/protocol';

/** The declared fields an output gives (E5: its first JSON object), and those it lacks. */
export function goalFields(
  output: string,
  names: readonly string[],
): { fields: Record<string, unknown>; missing: string[] } {
  const object = names.length === 0 ? undefined : firstJsonObject(output);
  const fields: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const name of names) {
    if (object !== undefined && Object.hasOwn(object, name)) fields[name] = object[name];
    else missing.push(name);
  }
  return { fields, missing };
}

/** The corrective retry's message: which declared fields the output lacked, and the E5 sentence. */
export function fieldsRetryMessage(missing: readonly string[], names: readonly string[]): string {
  return [
    `Your response has no JSON object with the field${missing.length === 1 ? '' : 's'} ${missing.join(', ')}.`,
    `Return your response as JSON with the following fields: ${names.join(', ')}`,
  ].join('\n\n');
}
