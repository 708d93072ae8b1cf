import { firstJsonObject } from '@agentstep/protocol';

/**
 * RECONCILE (code, no model): why a goal attempt needs a supervisor, from its COMMIT and ASSESS
 * answers: concerns, a commitment not met, deviations, unexpected results, low confidence, more
 * than three assumptions, or an answer that is not the JSON asked for. Empty: nothing to supervise.
 */
export function reconcile(commitment: string, assessment: string): string[] {
  const commit = firstJsonObject(commitment);
  const assess = firstJsonObject(assessment);
  const triggers: string[] = [];
  if (commit === undefined) triggers.push('the commitment is not a JSON object');
  if (assess === undefined) triggers.push('the assessment is not a JSON object');
  if (assess?.met === false) triggers.push('the commitment was not met');
  for (const field of ['deviations', 'concerns', 'unexpected'] as const) {
    if (listed(assess?.[field])) triggers.push(`${field}: ${JSON.stringify(assess?.[field])}`);
  }
  if (commit?.confidence === 'low') triggers.push('low confidence');
  const assumptions = commit?.assumptions;
  if (Array.isArray(assumptions) && assumptions.length > 3)
    triggers.push(`${assumptions.length} assumptions`);
  return triggers;
}

function listed(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'string'
    ? value.trim() !== ''
    : value !== undefined && value !== null && value !== false;
}
