import type { WorkflowSpec } from './workflow-spec.js';

/** Where a problem is in a spec: keys and indexes from its root (`['steps', 0, 'goals', 1]`). */
export type WorkflowSpecPath = (string | number)[];

/** A 1-based place in a source text. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** One broken cross reference, at the path of the offending value. */
export interface WorkflowSpecProblem {
  path: WorkflowSpecPath;
  message: string;
}

/**
 * Finds where a spec element came from, when the spec was parsed from a text. Without it,
 * messages name places by path (`agents.0`) and the first definition of a name is the earliest path.
 */
export type LocateSpecPath = (path: WorkflowSpecPath) => SourcePosition | undefined;

type DefinitionKind = 'INPUT' | 'AGENT' | 'GOAL' | 'CONVERGE' | 'RUN' | 'LOOP';

interface Definition {
  kind: DefinitionKind;
  name: string;
  path: WorkflowSpecPath;
}

interface SpecIndex {
  /** The first definition of each name. */
  byName: Map<string, Definition>;
  /** Every definition, first ones first. */
  definitions: Definition[];
  /** A place as messages say it: `3:1` from a text, `agents.0` otherwise. */
  place: (path: WorkflowSpecPath) => string;
}

type Rule = (spec: WorkflowSpec, index: SpecIndex) => WorkflowSpecProblem[];

/**
 * Every cross-reference problem of a structurally valid spec: names defined twice (inputs, agents,
 * goals and steps share one namespace), USING names of the wrong kind or undefined, output fields
 * named like an input or listed twice, WITHIN on the wrong kind or naming nothing, `synthesize`
 * without USING agents to merge, UNSUPERVISED under `SUPERVISED HUMAN`, no step. Never throws; problems come in rule order.
 */
export function workflowSpecProblems(spec: WorkflowSpec, locate?: LocateSpecPath): WorkflowSpecProblem[] {
  const index = specIndex(spec, locate);
  return RULES.flatMap((rule) => rule(spec, index));
}

const RULES: Rule[] = [
  duplicateNames,
  usingReferences,
  repeatedListItems,
  outputFieldNames,
  withinPlacement,
  withinVariables,
  synthesizeWithAgents,
  unsupervisedUnderHuman,
  atLeastOneStep,
];

function specIndex(spec: WorkflowSpec, locate: LocateSpecPath | undefined): SpecIndex {
  const place = (path: WorkflowSpecPath): string => {
    const at = locate?.(path);
    return at ? `${at.line}:${at.column}` : path.join('.');
  };
  const definitions = allDefinitions(spec);
  if (locate) definitions.sort((a, b) => comparePositions(locate(a.path), locate(b.path)));
  const byName = new Map<string, Definition>();
  for (const definition of definitions) {
    if (!byName.has(definition.name)) byName.set(definition.name, definition);
  }
  return { byName, definitions, place };
}

function allDefinitions(spec: WorkflowSpec): Definition[] {
  return [
    ...spec.inputs.map((input, i) => ({ kind: 'INPUT' as const, name: input.name, path: ['inputs', i] })),
    ...spec.agents.map((agent, i) => ({ kind: 'AGENT' as const, name: agent.name, path: ['agents', i] })),
    ...spec.goals.map((goal, i) => ({ kind: goalKind(goal), name: goal.name, path: ['goals', i] })),
    ...spec.steps.map((step, i) => ({ kind: stepKind(step), name: step.name, path: ['steps', i] })),
  ];
}

function comparePositions(a: SourcePosition | undefined, b: SourcePosition | undefined): number {
  if (!a || !b) return 0;
  return a.line - b.line || a.column - b.column;
}

function goalKind(goal: WorkflowSpec['goals'][number]): 'GOAL' | 'CONVERGE' {
  return goal.kind === 'converge' ? 'CONVERGE' : 'GOAL';
}

function stepKind(step: WorkflowSpec['steps'][number]): 'RUN' | 'LOOP' {
  return step.kind === 'loop' ? 'LOOP' : 'RUN';
}

function article(kind: DefinitionKind): string {
  return kind === 'INPUT' || kind === 'AGENT' ? 'an' : 'a';
}

function duplicateNames(_spec: WorkflowSpec, index: SpecIndex): WorkflowSpecProblem[] {
  return index.definitions.flatMap((definition) => {
    const first = index.byName.get(definition.name);
    if (!first || first === definition) return [];
    return [
      {
        path: [...definition.path, 'name'],
        message: `${definition.kind} ${definition.name} reuses a name: expected a name no other INPUT, AGENT, GOAL, CONVERGE, RUN or LOOP has, found the name of the ${first.kind} defined at ${index.place(first.path)}`,
      },
    ];
  });
}

function usingReferences(spec: WorkflowSpec, index: SpecIndex): WorkflowSpecProblem[] {
  const goalUses = spec.goals.flatMap((goal, i) =>
    goal.using.map((name, j) => ({
      owner: `${goalKind(goal)} ${goal.name}`,
      name,
      path: ['goals', i, 'using', j],
      kinds: ['AGENT'] as DefinitionKind[],
    })),
  );
  const stepUses = spec.steps.flatMap((step, i) =>
    step.goals.map((name, j) => ({
      owner: `${stepKind(step)} ${step.name}`,
      name,
      path: ['steps', i, 'goals', j],
      kinds: ['GOAL', 'CONVERGE'] as DefinitionKind[],
    })),
  );
  return [...goalUses, ...stepUses].flatMap(({ owner, name, path, kinds }) => {
    // A name defined twice is reported once, as such: a use that fits either definition is fine.
    const named = index.definitions.filter((candidate) => candidate.name === name);
    if (named.some((candidate) => kinds.includes(candidate.kind))) return [];
    const definition = named[0];
    const wanted = `${article(kinds[0] ?? 'GOAL')} ${kinds.join(' or ')}`;
    const message = definition
      ? `${owner} uses "${name}", which is not ${wanted} (it is ${article(definition.kind)} ${definition.kind} defined at ${index.place(definition.path)})`
      : `${owner} uses "${name}", which is not defined (expected the name of ${wanted})`;
    return [{ path, message }];
  });
}

function repeatedListItems(spec: WorkflowSpec, index: SpecIndex): WorkflowSpecProblem[] {
  const lists = [
    ...spec.agents.map((agent, i) => ({
      owner: `AGENT ${agent.name}`,
      what: 'output field',
      items: agent.outputs,
      path: ['agents', i, 'outputs'],
    })),
    ...spec.goals.flatMap((goal, i) => [
      {
        owner: `${goalKind(goal)} ${goal.name}`,
        what: 'output field',
        items: goal.outputs,
        path: ['goals', i, 'outputs'],
      },
      {
        owner: `${goalKind(goal)} ${goal.name}`,
        what: 'agent',
        items: goal.using,
        path: ['goals', i, 'using'],
      },
    ]),
  ];
  return lists.flatMap(({ owner, what, items, path }) =>
    items.flatMap((item, j) => {
      const first = items.indexOf(item);
      if (first === j) return [];
      return [
        {
          path: [...path, j],
          message: `${owner} lists ${what} "${item}" twice: expected each ${what} once, found it again after ${index.place([...path, first])}`,
        },
      ];
    }),
  );
}

function outputFieldNames(spec: WorkflowSpec, index: SpecIndex): WorkflowSpecProblem[] {
  const owners = [
    ...spec.agents.map((agent, i) => ({
      owner: `AGENT ${agent.name}`,
      outputs: agent.outputs,
      path: ['agents', i],
    })),
    ...spec.goals.map((goal, i) => ({
      owner: `${goalKind(goal)} ${goal.name}`,
      outputs: goal.outputs,
      path: ['goals', i],
    })),
  ];
  return owners.flatMap(({ owner, outputs, path }) =>
    outputs.flatMap((field, j) => {
      const input = spec.inputs.findIndex((candidate) => candidate.name === field);
      if (input < 0) return [];
      return [
        {
          path: [...path, 'outputs', j],
          message: `${owner} declares output field "${field}": expected a field name no INPUT has, found the name of the INPUT defined at ${index.place(['inputs', input])}`,
        },
      ];
    }),
  );
}

function withinPlacement(spec: WorkflowSpec): WorkflowSpecProblem[] {
  return spec.goals.flatMap((goal, i) => {
    if (goal.kind === 'goal' && goal.within !== undefined) {
      return [
        {
          path: ['goals', i, 'within'],
          message: `GOAL ${goal.name} has a WITHIN: expected WITHIN only on a CONVERGE (or a LOOP), found it on a GOAL`,
        },
      ];
    }
    if (goal.kind === 'converge' && goal.within === undefined) {
      return [
        {
          path: ['goals', i, 'within'],
          message: `CONVERGE ${goal.name} has no WITHIN: expected a whole number > 0 or a { variable }, found none`,
        },
      ];
    }
    return [];
  });
}

function synthesizeWithAgents(spec: WorkflowSpec): WorkflowSpecProblem[] {
  return spec.goals.flatMap((goal, i) => {
    if (goal.synthesize !== true || (goal.kind === 'goal' && goal.using.length > 0)) return [];
    const found = goal.kind === 'converge' ? 'a CONVERGE' : 'a GOAL without USING';
    return [
      {
        path: ['goals', i, 'synthesize'],
        message: `${goal.kind.toUpperCase()} ${goal.name} sets synthesize: expected it only on a GOAL with USING agents, whose outputs it merges, found it on ${found}`,
      },
    ];
  });
}

function withinVariables(spec: WorkflowSpec): WorkflowSpecProblem[] {
  const known = [
    ...spec.inputs.map((input) => input.name),
    ...spec.agents.flatMap((agent) => agent.outputs),
    ...spec.goals.flatMap((goal) => goal.outputs),
  ];
  const limits = [
    ...spec.goals.map((goal, i) => ({
      owner: `${goalKind(goal)} ${goal.name}`,
      within: goal.within,
      path: ['goals', i],
    })),
    ...spec.steps.map((step, i) => ({
      owner: `${stepKind(step)} ${step.name}`,
      within: step.kind === 'loop' ? step.within : undefined,
      path: ['steps', i],
    })),
  ];
  return limits.flatMap(({ owner, within, path }) => {
    if (typeof within !== 'object' || known.includes(within.variable)) return [];
    const choices =
      known.length > 0 ? ` (one of ${[...new Set(known)].map((name) => `$${name}`).join(', ')})` : '';
    return [
      {
        path: [...path, 'within'],
        message: `${owner} has WITHIN $${within.variable}: expected an INPUT or a declared output field${choices}, found neither`,
      },
    ];
  });
}

function unsupervisedUnderHuman(spec: WorkflowSpec, index: SpecIndex): WorkflowSpecProblem[] {
  if (spec.supervision !== 'human') return [];
  const modified = [
    ...spec.agents.map((agent, i) => ({
      owner: `AGENT ${agent.name}`,
      supervision: agent.supervision,
      path: ['agents', i],
    })),
    ...spec.goals.map((goal, i) => ({
      owner: `${goalKind(goal)} ${goal.name}`,
      supervision: goal.supervision,
      path: ['goals', i],
    })),
    ...spec.steps.map((step, i) => ({
      owner: `${stepKind(step)} ${step.name}`,
      supervision: step.kind === 'run' ? step.supervision : undefined,
      path: ['steps', i],
    })),
  ];
  return modified.flatMap(({ owner, supervision, path }) => {
    if (supervision !== 'unsupervised') return [];
    return [
      {
        path: [...path, 'supervision'],
        message: `${owner} is UNSUPERVISED: expected SUPERVISED, SUPERVISED HUMAN or no modifier under the workflow's SUPERVISED HUMAN (at ${index.place(['supervision'])}), found UNSUPERVISED`,
      },
    ];
  });
}

function atLeastOneStep(spec: WorkflowSpec): WorkflowSpecProblem[] {
  if (spec.steps.length > 0) return [];
  return [{ path: ['steps'], message: 'expected at least one RUN or LOOP, found none' }];
}
