import { escapeXml } from '@agentstep/protocol';

/** The fields a COMMIT answer holds (agentfile.md, Supervision 1). */
const COMMIT_FIELDS =
  'interpretation, scope_in, scope_out, approach, tools, predicted_output, confidence, assumptions';

/** The fields an ASSESS answer holds (agentfile.md, Supervision 3). */
const ASSESS_FIELDS = 'met, deviations, concerns, unexpected';

function phase(name: string, goal: string, lines: readonly string[]): string {
  return [`<supervision phase="${name}" goal="${escapeXml(goal)}">`, ...lines, '</supervision>'].join('\n');
}

/** COMMIT: before the goal runs, its plan as JSON; the goal's document follows. */
export function commitMessage(goal: string, document: string): string {
  return `${phase('commit', goal, [
    'Before you work on the goal below, commit to how you will do it. Do not do the work yet.',
    `Answer with only a JSON object with the fields ${COMMIT_FIELDS} (confidence: high, medium or low; scope_in, scope_out, tools and assumptions: lists).`,
  ])}\n\n${document}`;
}

/** ASSESS: after the goal ran, whether its commitment was met, as JSON. */
export function assessMessage(goal: string, commitment: string, output: string): string {
  return phase('assess', goal, [
    `You committed to:\n${escapeXml(commitment)}`,
    `The goal's output:\n${escapeXml(output)}`,
    `Assess the output against the commitment. Answer with only a JSON object with the fields ${ASSESS_FIELDS} (met: true or false; the others: lists).`,
  ]);
}

/** SUPERVISE: a verdict on the output, given why supervision was triggered. */
export function superviseMessage(goal: string, triggers: readonly string[], output: string): string {
  return phase('supervise', goal, [
    `Supervision was triggered by: ${escapeXml(triggers.join('; ') || 'a person reviews this goal')}.`,
    `The goal's output:\n${escapeXml(output)}`,
    'Answer with exactly one verdict: CONTINUE, or REORIENT: "<the correction to run the goal again with>", or PAUSE: "<the question for a person>".',
  ]);
}
