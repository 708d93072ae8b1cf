import type { AgentfileToken } from './agentfile-token.js';
import type { ParseState } from './parse-state.js';
import { type Clause, readClauses } from './read-clauses.js';
import { readName } from './read-name.js';
import { readNameList } from './read-name-list.js';
import { readSupervision } from './read-supervision.js';
import { readText } from './read-text.js';
import { readWithin } from './read-within.js';
import type {
  WorkflowAgent,
  WorkflowGoal,
  WorkflowInput,
  WorkflowRunStep,
  WorkflowSupervision,
  WorkflowWithin,
} from './workflow-spec.js';
import type { WorkflowSpecPath } from './workflow-spec-problems.js';

/**
 * Reads one statement after its keyword into the state's spec, with the position of each part.
 * False after a syntax error (recorded in the state; the statement adds nothing to the spec).
 */
export function parseStatement(state: ParseState, keyword: AgentfileToken): boolean {
  switch (keyword.value) {
    case 'NAME':
      return nameStatement(state);
    case 'INPUT':
      return inputStatement(state, keyword);
    case 'AGENT':
      return agentStatement(state, keyword);
    case 'GOAL':
    case 'CONVERGE':
      return goalStatement(state, keyword);
    case 'RUN':
      return runStatement(state, keyword);
    case 'LOOP':
      return loopStatement(state, keyword);
    default:
      return supervisedStatement(state, keyword);
  }
}

function nameStatement(state: ParseState): boolean {
  const name = readName(state, 'a name', 'NAME');
  if (!name || !readClauses(state, `NAME ${name.value}`, [])) return false;
  if (state.names.length === 0) state.place(['name'], name);
  state.names.push(name);
  return true;
}

function inputStatement(state: ParseState, keyword: AgentfileToken): boolean {
  const name = readName(state, 'a name', 'INPUT');
  if (!name) return false;
  const path = definitionPath(state, 'inputs', keyword, name);
  const subject = `INPUT ${name.value}`;
  const input: WorkflowInput = { name: name.value };
  const defaultClause: Clause = {
    starts: ['DEFAULT'],
    label: 'DEFAULT',
    read: (start) => {
      const value = state.peek();
      if (value.kind !== 'string' && value.kind !== 'number' && value.kind !== 'identifier') {
        state.expected(`a string, number or name after ${start.value} in ${subject}`, value);
        return false;
      }
      state.place([...path, 'default'], state.next());
      input.default = value.value;
      return true;
    },
  };
  if (!readClauses(state, subject, [defaultClause])) return false;
  state.spec.inputs.push(input);
  return true;
}

function agentStatement(state: ParseState, keyword: AgentfileToken): boolean {
  const name = readName(state, 'a name', 'AGENT');
  if (!name) return false;
  const path = definitionPath(state, 'agents', keyword, name);
  const subject = `AGENT ${name.value}`;
  const prompt = readText(state, subject, [...path, 'prompt']);
  if (prompt === undefined) return false;
  const agent: WorkflowAgent = { name: name.value, prompt, outputs: [] };
  const requiresClause: Clause = {
    starts: ['REQUIRES'],
    label: 'REQUIRES',
    read: (start) => {
      const profile = state.peek();
      if (profile.kind !== 'string') {
        state.expected(`a profile name in quotes after ${start.value} in ${subject}`, profile);
        return false;
      }
      state.place([...path, 'requires'], state.next());
      agent.requires = profile.value;
      return true;
    },
  };
  const clauses = [
    outputsClause(state, subject, path, (outputs) => {
      agent.outputs = outputs;
    }),
    requiresClause,
    supervisionClause(state, path, (supervision) => {
      agent.supervision = supervision;
    }),
  ];
  if (!readClauses(state, subject, clauses)) return false;
  state.spec.agents.push(agent);
  return true;
}

function goalStatement(state: ParseState, keyword: AgentfileToken): boolean {
  const name = readName(state, 'a name', keyword.value);
  if (!name) return false;
  const path = definitionPath(state, 'goals', keyword, name);
  const subject = `${keyword.value} ${name.value}`;
  const description = readText(state, subject, [...path, 'description']);
  if (description === undefined) return false;
  const kind = keyword.value === 'CONVERGE' ? 'converge' : 'goal';
  const goal: WorkflowGoal = { name: name.value, kind, description, outputs: [], using: [] };
  const clauses = [
    outputsClause(state, subject, path, (outputs) => {
      goal.outputs = outputs;
    }),
    usingClause(state, 'an agent name', subject, [...path, 'using'], false, (agents) => {
      goal.using = agents;
    }),
    ...(kind === 'converge'
      ? [
          withinClause(state, subject, path, (within) => {
            goal.within = within;
          }),
        ]
      : []),
    supervisionClause(state, path, (supervision) => {
      goal.supervision = supervision;
    }),
  ];
  if (!readClauses(state, subject, clauses)) return false;
  state.spec.goals.push(goal);
  return true;
}

function runStatement(state: ParseState, keyword: AgentfileToken): boolean {
  const name = readName(state, 'a name', 'RUN');
  if (!name) return false;
  const path = definitionPath(state, 'steps', keyword, name);
  const subject = `RUN ${name.value}`;
  const step: WorkflowRunStep = { kind: 'run', name: name.value, goals: [] };
  const clauses = [
    usingClause(state, 'a goal name', subject, [...path, 'goals'], true, (goals) => {
      step.goals = goals;
    }),
    supervisionClause(state, path, (supervision) => {
      step.supervision = supervision;
    }),
  ];
  if (!readClauses(state, subject, clauses)) return false;
  state.spec.steps.push(step);
  return true;
}

function loopStatement(state: ParseState, keyword: AgentfileToken): boolean {
  const name = readName(state, 'a name', 'LOOP');
  if (!name) return false;
  const path = definitionPath(state, 'steps', keyword, name);
  const subject = `LOOP ${name.value}`;
  const loop: { goals: string[]; within?: WorkflowWithin } = { goals: [] };
  const clauses = [
    usingClause(state, 'a goal name', subject, [...path, 'goals'], true, (goals) => {
      loop.goals = goals;
    }),
    withinClause(state, subject, path, (within) => {
      loop.within = within;
    }),
  ];
  if (!readClauses(state, subject, clauses) || loop.within === undefined) return false;
  state.spec.steps.push({ kind: 'loop', name: name.value, goals: loop.goals, within: loop.within });
  return true;
}

function supervisedStatement(state: ParseState, keyword: AgentfileToken): boolean {
  const supervision = readSupervision(state, keyword) === 'human' ? 'human' : 'supervised';
  const subject = supervision === 'human' ? 'SUPERVISED HUMAN' : 'SUPERVISED';
  if (!readClauses(state, subject, [])) return false;
  if (state.statements === 0) {
    state.spec.supervision = supervision;
    state.place(['supervision'], keyword);
    return true;
  }
  state.report(
    keyword,
    `expected ${subject} only as the first statement (the workflow's default) or as a modifier of AGENT, GOAL, CONVERGE or RUN, found it after other statements`,
  );
  return true;
}

/** The spec path of the next definition in `section`, with its keyword and name placed. */
function definitionPath(
  state: ParseState,
  section: 'inputs' | 'agents' | 'goals' | 'steps',
  keyword: AgentfileToken,
  name: AgentfileToken,
): WorkflowSpecPath {
  const path = [section, state.spec[section].length];
  state.place(path, keyword);
  state.place([...path, 'name'], name);
  return path;
}

function outputsClause(
  state: ParseState,
  subject: string,
  path: WorkflowSpecPath,
  set: (outputs: string[]) => void,
): Clause {
  return listClause(
    state,
    { starts: ['->'], label: '"->"' },
    'a field name',
    subject,
    [...path, 'outputs'],
    set,
  );
}

function usingClause(
  state: ParseState,
  what: string,
  subject: string,
  path: WorkflowSpecPath,
  required: boolean,
  set: (names: string[]) => void,
): Clause {
  return listClause(state, { starts: ['USING'], label: 'USING', required }, what, subject, path, set);
}

function listClause(
  state: ParseState,
  start: Pick<Clause, 'starts' | 'label' | 'required'>,
  what: string,
  subject: string,
  path: WorkflowSpecPath,
  set: (names: string[]) => void,
): Clause {
  return {
    ...start,
    continuedBy: '","',
    read: (first) => {
      const names = readNameList(state, first, what, subject, path);
      if (names) set(names);
      return names !== undefined;
    },
  };
}

function withinClause(
  state: ParseState,
  subject: string,
  path: WorkflowSpecPath,
  set: (within: WorkflowWithin) => void,
): Clause {
  return {
    starts: ['WITHIN'],
    label: 'WITHIN',
    required: true,
    read: (start) => {
      const within = readWithin(state, start, subject, [...path, 'within']);
      if (within !== undefined) set(within);
      return within !== undefined;
    },
  };
}

function supervisionClause(
  state: ParseState,
  path: WorkflowSpecPath,
  set: (supervision: WorkflowSupervision) => void,
): Clause {
  return {
    starts: ['SUPERVISED', 'UNSUPERVISED'],
    label: 'SUPERVISED, UNSUPERVISED',
    read: (start) => {
      state.place([...path, 'supervision'], start);
      set(readSupervision(state, start));
      return true;
    },
  };
}
