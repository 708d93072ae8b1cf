import { fieldText } from '@agentstep/protocol';
import { type RunLog, recordsOf } from './run-log.js';

/**
 * The run's variables (E5): its inputs, then every completed goal's fields in log order; inputs and
 * fields share one namespace and the latest write wins.
 */
export function variablesOf(log: RunLog): Record<string, string> {
  const variables: Record<string, string> = { ...log.inputs };
  for (const { record } of recordsOf(log, 'goal')) {
    for (const [name, value] of Object.entries(record.fields ?? {})) variables[name] = fieldText(value);
  }
  return variables;
}
