import type { Template } from 'aws-cdk-lib/assertions';

/** A state of a synthesized definition; a Map's item states under `ItemProcessor`. */
export type State = Record<string, unknown> & { ItemProcessor?: { States: Record<string, State> } };

/**
 * The states of the loop's definition, or the workflow machine's (the one with AdvanceWorkflow),
 * from the template. A token that is a whole JSON string (a function's version, an alias) reads as
 * its intrinsic (`{ Ref: … }`); one inside a longer string reads `TOKEN`.
 */
export function machineStates(
  template: Template,
  machine: 'loop' | 'workflows' = 'loop',
): Record<string, State> {
  const all = Object.values(template.findResources('AWS::StepFunctions::StateMachine')).map((resource) => {
    const parts = resource.Properties.DefinitionString['Fn::Join'][1] as unknown[];
    const tokens = parts.filter((part) => typeof part !== 'string');
    let index = 0;
    const text = parts.map((part) => (typeof part === 'string' ? part : placeholder(index++))).join('');
    return withTokens(JSON.parse(text), tokens) as { States: Record<string, State> };
  });
  const found = all
    .map(({ States }) => States)
    .find((states) => 'AdvanceWorkflow' in states === (machine === 'workflows'));
  if (found === undefined) throw new Error(`No ${machine} state machine in the template.`);
  return found;
}

/** Every Task state of `states`, those of Map item processors included, by name. */
export function taskStates(states: Record<string, State>): Record<string, State> {
  return Object.fromEntries(
    Object.entries(states).flatMap(([name, state]) => [
      ...(state.Type === 'Task' ? [[name, state]] : []),
      ...Object.entries(state.ItemProcessor ? taskStates(state.ItemProcessor.States) : {}),
    ]),
  );
}

const placeholder = (index: number) => `@@TOKEN${index}@@`;

function withTokens(value: unknown, tokens: readonly unknown[]): unknown {
  if (typeof value === 'string') {
    const whole = /^@@TOKEN(\d+)@@$/.exec(value);
    return whole ? tokens[Number(whole[1])] : value.replace(/@@TOKEN\d+@@/g, 'TOKEN');
  }
  if (Array.isArray(value)) return value.map((item) => withTokens(item, tokens));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withTokens(inner, tokens)]));
}
