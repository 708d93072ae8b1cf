import { escapeXml } from '@agentstep/protocol';

/**
 * SYNTHESIZE: the message of the one model call that merges a USING goal's agent outputs. The
 * goal's document follows the request; its `<context>` holds each agent's output as
 * `<goal id="goal[agent]">` (E3), escaped like any output (E2), so no output can pass for another.
 */
export function synthesisMessage(goal: string, agents: readonly string[], document: string): string {
  const labels = agents.map((agent) => `${goal}[${agent}]`).join(', ');
  return [
    `<synthesis goal="${escapeXml(goal)}">`,
    `Agents worked on the current goal below, each on its own; their outputs are in <context> as ${escapeXml(labels)}.`,
    'Merge them into one response to the current goal: keep what they agree on, settle where they differ, and drop nothing that matters. Answer with the merged response only.',
    `</synthesis>\n\n${document}`,
  ].join('\n');
}
