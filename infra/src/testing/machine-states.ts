import type { Template } from 'aws-cdk-lib/assertions';

/** A state of a synthesized definition; a Map's item states under `ItemProcessor`. */
export type State = Record<string, unknown> & { ItemProcessor?: { States: Record<string, State> } };

/**
 * The states of the loop's definition, or the workflow machine's (the one with AdvanceWorkflow),
 * from the template; tokens (function ARNs), which sit inside JSON strings, read `TOKEN`.
 */
export function machineStates(
  template: Template,
  machine: 'loop' | 'workflows' = 'loop',
): Record<string, State> {
  const all = Object.values(template.findResources('AWS::StepFunctions::StateMachine')).map((resource) => {
    const parts = resource.Properties.DefinitionString['Fn::Join'][1] as unknown[];
    const text = parts.map((part) => (typeof part === 'string' ? part : 'TOKEN')).join('');
    return (JSON.parse(text) as { States: Record<string, State> }).States;
  });
  const found = all.find((states) => 'AdvanceWorkflow' in states === (machine === 'workflows'));
  if (found === undefined) throw new Error(`No ${machine} state machine in the template.`);
  return found;
}
